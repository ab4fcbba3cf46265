//! Human-readable tables as kubectl's `HumanReadablePrinter` prints server-side `Table`s:
//! upper-cased headers, wide-only columns, NAMESPACE / LABELS / label columns, `kind/name`.

use super::tabwriter;
use crate::api::Labels;

/// A column definition (`metav1.TableColumnDefinition`): its name, whether it is shown only
/// with `-o wide` (priority 1), and whether it is the name column (`format: name`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Column {
    pub name: &'static str,
    pub wide: bool,
    pub is_name: bool,
}

impl Column {
    pub const fn name(name: &'static str) -> Column {
        Column {
            name,
            wide: false,
            is_name: true,
        }
    }
    pub const fn std(name: &'static str) -> Column {
        Column {
            name,
            wide: false,
            is_name: false,
        }
    }
    pub const fn wide(name: &'static str) -> Column {
        Column {
            name,
            wide: true,
            is_name: false,
        }
    }
}

/// One row: its cells (one per column definition, wide ones included) and the object's
/// namespace and labels for the decorations.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Row {
    pub cells: Vec<String>,
    pub namespace: String,
    pub labels: Labels,
}

/// How to decorate and print a table.
#[derive(Clone, Debug, Default)]
pub struct TableOptions {
    pub wide: bool,
    pub no_headers: bool,
    pub with_namespace: bool,
    pub show_labels: bool,
    /// `-L key`: one column per key.
    pub label_columns: Vec<String>,
    /// `kind.group` to prefix names with (`replicaset.apps`), when several kinds are printed.
    pub kind_prefix: Option<String>,
}

/// `printers.EscapeTerminal`: ESC and CR cannot reach the terminal.
pub fn escape_terminal(s: &str) -> String {
    s.replace('\x1b', "^[").replace('\r', "\\r")
}

/// Header names after decoration (NAMESPACE first, label columns and LABELS last).
pub fn headers(columns: &[Column], opts: &TableOptions) -> Vec<String> {
    let mut h = vec![];
    if opts.with_namespace {
        h.push("NAMESPACE".to_string());
    }
    for c in columns {
        if c.wide && !opts.wide {
            continue;
        }
        h.push(c.name.to_uppercase());
    }
    for l in &opts.label_columns {
        h.push(l.rsplit('/').next().unwrap_or(l).to_uppercase());
    }
    if opts.show_labels {
        h.push("LABELS".into());
    }
    h
}

/// The decorated cells of one row.
pub fn row_cells(columns: &[Column], row: &Row, opts: &TableOptions) -> Vec<String> {
    let mut cells = vec![];
    if opts.with_namespace {
        cells.push(row.namespace.clone());
    }
    for (i, c) in columns.iter().enumerate() {
        if c.wide && !opts.wide {
            continue;
        }
        let mut v = row.cells.get(i).cloned().unwrap_or_default();
        if c.is_name {
            if let Some(k) = &opts.kind_prefix {
                v = format!("{k}/{v}");
            }
        }
        // printTable cuts a cell at the first line break and marks it with "...".
        if let Some(p) = v.find(['\n', '\r', '\x0c']) {
            v.truncate(p);
            v.push_str("...");
        }
        cells.push(escape_terminal(&v));
    }
    for l in &opts.label_columns {
        cells.push(row.labels.get(l).cloned().unwrap_or_default());
    }
    if opts.show_labels {
        cells.push(crate::api::labels_string(&row.labels));
    }
    cells
}

/// Tab-separated lines for the rows (and the header unless suppressed), not yet laid out.
/// Empty when there are no rows: kubectl prints no header for an empty table.
pub fn raw_lines(columns: &[Column], rows: &[Row], opts: &TableOptions, header: bool) -> String {
    if rows.is_empty() {
        return String::new();
    }
    let mut s = String::new();
    if header && !opts.no_headers {
        s.push_str(&headers(columns, opts).join("\t"));
        s.push('\n');
    }
    for r in rows {
        s.push_str(&row_cells(columns, r, opts).join("\t"));
        s.push('\n');
    }
    s
}

/// Lays out raw table lines with kubectl's tab writer.
pub fn layout(raw: &str) -> String {
    tabwriter::format(raw, tabwriter::TABLE_MINWIDTH, tabwriter::TABLE_PADDING)
}

/// Prints one table with headers.
pub fn render(columns: &[Column], rows: &[Row], opts: &TableOptions) -> String {
    layout(&raw_lines(columns, rows, opts, true))
}

#[cfg(test)]
mod tests {
    use super::*;

    const COLS: &[Column] = &[
        Column::name("Name"),
        Column::std("Age"),
        Column::wide("Node"),
    ];

    fn row(name: &str, ns: &str, labels: &[(&str, &str)]) -> Row {
        Row {
            cells: vec![name.into(), "5m".into(), "node-1".into()],
            namespace: ns.into(),
            labels: labels
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        }
    }

    #[test]
    fn decorations() {
        let rows = vec![
            row("a", "default", &[("app", "web")]),
            row("bb", "prod", &[]),
        ];
        let opts = TableOptions {
            with_namespace: true,
            show_labels: true,
            kind_prefix: Some("pod".into()),
            ..Default::default()
        };
        assert_eq!(
            render(COLS, &rows, &opts),
            "NAMESPACE   NAME     AGE   LABELS\ndefault     pod/a    5m    app=web\nprod        pod/bb   5m    <none>\n"
        );
        let wide = TableOptions {
            wide: true,
            label_columns: vec!["app.kubernetes.io/app".into(), "app".into()],
            ..Default::default()
        };
        assert_eq!(
            render(COLS, &rows, &wide),
            "NAME   AGE   NODE     APP   APP\na      5m    node-1         web\nbb     5m    node-1         \n"
        );
        assert_eq!(render(COLS, &[], &opts), "");
    }
}
