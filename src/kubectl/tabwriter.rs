//! A port of Go's `text/tabwriter` column layout (space padding, no flags), which kubectl uses
//! for tables (minwidth 6, padding 3) and for `describe` (minwidth 0, padding 2).
//!
//! Cells are tab-terminated; the text after the last tab of a line is not part of a column.
//! A column block is a run of consecutive lines that all have a cell in that column; its width
//! is the widest cell plus padding (at least `minwidth`), computed block by block exactly as
//! `Writer.format` does.

/// kubectl's table writer parameters (`printers.GetNewTabWriter`).
pub const TABLE_MINWIDTH: usize = 6;
pub const TABLE_PADDING: usize = 3;
/// `describe`'s writer parameters (`tabbedString`).
pub const DESCRIBE_MINWIDTH: usize = 0;
pub const DESCRIBE_PADDING: usize = 2;

struct Line<'a> {
    cells: Vec<&'a str>,
}

fn width(s: &str) -> usize {
    s.chars().count()
}

/// Lays out `text` as a Go `tabwriter.Writer` with the given parameters would, after `Flush`.
pub fn format(text: &str, minwidth: usize, padding: usize) -> String {
    if text.is_empty() {
        return String::new();
    }
    let ends_with_newline = text.ends_with('\n');
    let body = if ends_with_newline {
        &text[..text.len() - 1]
    } else {
        text
    };
    let lines: Vec<Line> = body
        .split('\n')
        .map(|l| Line {
            cells: l.split('\t').collect(),
        })
        .collect();
    let mut out = String::with_capacity(text.len() * 2);
    let mut widths: Vec<usize> = vec![];
    format_block(
        &lines,
        0,
        lines.len(),
        &mut widths,
        minwidth,
        padding,
        &mut out,
    );
    if !ends_with_newline && out.ends_with('\n') {
        out.pop();
    }
    out
}

fn format_block(
    lines: &[Line],
    mut line0: usize,
    line1: usize,
    widths: &mut Vec<usize>,
    minwidth: usize,
    padding: usize,
    out: &mut String,
) {
    let column = widths.len();
    let mut this = line0;
    while this < line1 {
        if column + 1 >= lines[this].cells.len() {
            this += 1;
            continue;
        }
        // A cell exists in this column: print the lines before the block, then measure it.
        write_lines(lines, line0, this, widths, out);
        line0 = this;
        let mut w = minwidth;
        while this < line1 && column + 1 < lines[this].cells.len() {
            w = w.max(width(lines[this].cells[column]) + padding);
            this += 1;
        }
        widths.push(w);
        format_block(lines, line0, this, widths, minwidth, padding, out);
        widths.pop();
        line0 = this;
    }
    write_lines(lines, line0, line1, widths, out);
}

fn write_lines(lines: &[Line], from: usize, to: usize, widths: &[usize], out: &mut String) {
    for line in &lines[from..to] {
        for (j, cell) in line.cells.iter().enumerate() {
            out.push_str(cell);
            if j < widths.len() && j + 1 < line.cells.len() {
                let pad = widths[j].saturating_sub(width(cell));
                out.extend(std::iter::repeat_n(' ', pad));
            }
        }
        out.push('\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kubectl_table_layout() {
        let t = "NAME\tREADY\tSTATUS\tRESTARTS\tAGE\nfrontend-b2zdv\t1/1\tRunning\t0\t6m36s\n";
        assert_eq!(
            format(t, TABLE_MINWIDTH, TABLE_PADDING),
            "NAME             READY   STATUS    RESTARTS   AGE\nfrontend-b2zdv   1/1     Running   0          6m36s\n"
        );
    }

    #[test]
    fn minwidth_applies_to_narrow_columns() {
        assert_eq!(
            format("A\tB\nx\ty\n", TABLE_MINWIDTH, TABLE_PADDING),
            "A     B\nx     y\n"
        );
    }

    /// Column blocks end at a line with fewer cells, as in Go's tabwriter (describe layout).
    #[test]
    fn blocks_realign_after_section_headers() {
        let t = "Name:\tweb\nNamespace:\tdefault\nContainers:\n  nginx:\n    Image:\tnginx\n    Port:\t<none>\n";
        assert_eq!(
            format(t, DESCRIBE_MINWIDTH, DESCRIBE_PADDING),
            "Name:       web\nNamespace:  default\nContainers:\n  nginx:\n    Image:  nginx\n    Port:   <none>\n"
        );
    }

    #[test]
    fn empty_last_cell_is_padded_like_go() {
        assert_eq!(
            format("IP:\t\nNode:\tn1\n", DESCRIBE_MINWIDTH, DESCRIBE_PADDING),
            "IP:    \nNode:  n1\n"
        );
    }

    #[test]
    fn nested_blocks() {
        let t = "a\tb\tc\naa\tb\nx\ty\tz\n";
        // Column 0 spans all lines; column 1 only the first and last line separately.
        assert_eq!(format(t, 0, 1), "a  b c\naa b\nx  y z\n");
    }
}
