//! `-f PATH` as cli-runtime's resource builder reads it (`builder.go` `FilenameParam`, `Path`,
//! `expandIfFilePattern`; `visitor.go` `ExpandPathsToFileVisitors`, `FileVisitor`): `-` is
//! standard input; a path that does not exist is tried as a glob pattern; a directory is walked
//! in name order (`filepath.Walk`), descending into subdirectories only with `-R`, and keeps only
//! files ending in `.json`, `.yaml` or `.yml` (a file named explicitly is read whatever its
//! extension). Problems with the paths are reported before anything is read, together, as
//! kubectl aggregates them; a file that cannot be opened is an error of that file only.

use std::collections::BTreeMap;

/// `resource.FileExtensions`.
pub const FILE_EXTENSIONS: [&str; 3] = [".json", ".yaml", ".yml"];

/// What `os.Stat`/`os.Lstat` says about a path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stat {
    File,
    Dir,
    /// `os.IsNotExist`.
    NotExist,
    /// Any other failure, with Go's error text (`stat p: permission denied`).
    Error(String),
}

/// The file system `-f` reads. The CLI passes the real one; without one (the browser, tests)
/// the in-memory map of [`super::Input::files`] stands for it, its directories being the
/// prefixes of its paths.
pub trait FileSystem: std::fmt::Debug {
    /// `os.Stat` (follows symbolic links).
    fn stat(&self, path: &str) -> Stat;
    /// `os.Lstat` (as `filepath.Walk` looks at directory entries); defaults to [`Self::stat`].
    fn lstat(&self, path: &str) -> Stat {
        self.stat(path)
    }
    /// The names in a directory, sorted (`readDirNames`), or Go's error text
    /// (`open p: permission denied`).
    fn read_dir(&self, path: &str) -> Result<Vec<String>, String>;
    /// A file's text, or Go's error text (`open p: permission denied`).
    fn read(&self, path: &str) -> Result<String, String>;
}

/// The in-memory file map as a file system: a path is a file if it is a key, a directory if
/// some key lies below it.
#[derive(Debug)]
pub struct MapFs<'a>(pub Option<&'a BTreeMap<String, String>>);

impl MapFs<'_> {
    fn keys(&self) -> impl Iterator<Item = &String> {
        self.0.into_iter().flat_map(|m| m.keys())
    }
    fn dir_prefix(path: &str) -> String {
        let clean = clean(path);
        if clean == "." {
            String::new()
        } else if clean.ends_with('/') {
            clean
        } else {
            format!("{clean}/")
        }
    }
}

impl FileSystem for MapFs<'_> {
    fn stat(&self, path: &str) -> Stat {
        if self.0.is_some_and(|m| m.contains_key(path)) {
            return Stat::File;
        }
        let c = clean(path);
        if self.0.is_some_and(|m| m.contains_key(&c)) {
            return Stat::File;
        }
        let prefix = Self::dir_prefix(path);
        if self.keys().any(|k| k.starts_with(&prefix)) {
            Stat::Dir
        } else {
            Stat::NotExist
        }
    }
    fn read_dir(&self, path: &str) -> Result<Vec<String>, String> {
        let prefix = Self::dir_prefix(path);
        let mut names: Vec<String> = self
            .keys()
            .filter_map(|k| k.strip_prefix(&prefix))
            .filter_map(|rest| rest.split('/').next())
            .filter(|n| !n.is_empty())
            .map(String::from)
            .collect();
        crate::sort::sort(&mut names);
        names.dedup();
        Ok(names)
    }
    fn read(&self, path: &str) -> Result<String, String> {
        self.0
            .and_then(|m| m.get(path).or_else(|| m.get(&clean(path))))
            .cloned()
            .ok_or_else(|| format!("open {path}: no such file or directory"))
    }
}

/// One input the builder visits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    Stdin,
    Path(String),
}

/// The inputs of `-f` arguments, in visiting order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expanded {
    pub sources: Vec<Source>,
    /// `visitByPaths`' `singleItemImplied`: one file, not a directory of several, not stdin.
    pub single_item_implied: bool,
}

/// `FilenameParam` + `Path` + `visitByPaths`.
///
/// # Errors
/// The builder's errors as kubectl prints them: one as `error: MESSAGE`, several as their
/// messages one a line (`MultipleErrors` of the aggregate).
pub fn expand(
    filenames: &[String],
    recursive: bool,
    fs: &dyn FileSystem,
) -> Result<Expanded, String> {
    let mut errs: Vec<String> = vec![];
    let mut sources = vec![];
    let mut dir = false;
    let mut stream = false;
    for s in filenames {
        if s == "-" {
            if stream {
                // StdinMultiUseError
                errs.push("standard input cannot be used for multiple arguments".into());
            }
            stream = true;
            sources.push(Source::Stdin);
            continue;
        }
        let matches = match expand_if_file_pattern(s, fs) {
            Ok(m) => m,
            Err(e) => {
                errs.push(e);
                continue;
            }
        };
        // Builder.Path
        for p in &matches {
            match fs.stat(p) {
                Stat::NotExist => {
                    errs.push(format!("the path {p:?} does not exist"));
                    continue;
                }
                Stat::Error(e) => {
                    errs.push(format!("the path {p:?} cannot be accessed: {e}"));
                    continue;
                }
                Stat::File | Stat::Dir => {}
            }
            let (visitors, err) = expand_paths_to_file_visitors(p, recursive, fs);
            if let Some(e) = err {
                errs.push(format!("error reading {p:?}: {e}"));
            }
            if visitors.len() > 1 {
                dir = true;
            }
            sources.extend(visitors.into_iter().map(Source::Path));
        }
        if sources.is_empty() && errs.is_empty() {
            errs.push(format!(
                "error reading [{}]: recognized file extensions are [{}]",
                matches.join(" "),
                FILE_EXTENSIONS.join(" ")
            ));
        }
    }
    match errs.as_slice() {
        [] => Ok(Expanded {
            single_item_implied: !dir && !stream && sources.len() == 1,
            sources,
        }),
        [one] => Err(format!("error: {one}")),
        many => Err(many.join("\n")),
    }
}

/// `expandIfFilePattern`: the path itself unless it does not exist; then its glob matches.
fn expand_if_file_pattern(pattern: &str, fs: &dyn FileSystem) -> Result<Vec<String>, String> {
    if fs.stat(pattern) != Stat::NotExist {
        return Ok(vec![pattern.to_string()]);
    }
    match glob(pattern, fs) {
        Ok(m) if m.is_empty() => Err(format!("the path {pattern:?} does not exist")),
        Ok(m) => Ok(m),
        Err(()) => Err(format!(
            "pattern {pattern:?} is not valid: syntax error in pattern"
        )),
    }
}

/// `ExpandPathsToFileVisitors`: the files `filepath.Walk` finds under `root`, and the error
/// that stopped the walk (the files found before it are kept).
fn expand_paths_to_file_visitors(
    root: &str,
    recursive: bool,
    fs: &dyn FileSystem,
) -> (Vec<String>, Option<String>) {
    let mut out = vec![];
    let err = match fs.lstat(root) {
        Stat::NotExist => Some(format!("lstat {root}: no such file or directory")),
        Stat::Error(e) => Some(e),
        st => walk(root, root, st == Stat::Dir, recursive, fs, &mut out).err(),
    };
    (out, err)
}

/// `filepath.Walk`'s `walk` with the visitor's `WalkFunc`.
fn walk(
    root: &str,
    path: &str,
    is_dir: bool,
    recursive: bool,
    fs: &dyn FileSystem,
    out: &mut Vec<String>,
) -> Result<(), String> {
    if !is_dir {
        // Don't check extension if the filepath was passed explicitly.
        if path == root || !ignore_file(path) {
            out.push(path.to_string());
        }
        return Ok(());
    }
    // The names are read before the WalkFunc sees the directory: an unreadable subdirectory
    // stops the walk even when it would be skipped.
    let names = fs.read_dir(path)?;
    if path != root && !recursive {
        return Ok(()); // filepath.SkipDir
    }
    for name in names {
        let child = join(path, &name);
        match fs.lstat(&child) {
            Stat::NotExist => {
                return Err(format!("lstat {child}: no such file or directory"));
            }
            Stat::Error(e) => return Err(e),
            st => walk(root, &child, st == Stat::Dir, recursive, fs, out)?,
        }
    }
    Ok(())
}

/// `ignoreFile` with `FileExtensions`: the extension (`filepath.Ext`, case-sensitive) is not
/// one of them.
fn ignore_file(path: &str) -> bool {
    let base = path.rsplit('/').next().unwrap_or(path);
    let ext = base.rfind('.').map(|i| &base[i..]).unwrap_or("");
    !FILE_EXTENSIONS.contains(&ext)
}

/// `filepath.Join`: the parts joined with `/` and cleaned.
fn join(dir: &str, name: &str) -> String {
    clean(&format!("{dir}/{name}"))
}

/// `filepath.Clean` (Unix).
pub(crate) fn clean(path: &str) -> String {
    if path.is_empty() {
        return ".".into();
    }
    let rooted = path.starts_with('/');
    let mut parts: Vec<&str> = vec![];
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                if parts.last().is_some_and(|p| *p != "..") {
                    parts.pop();
                } else if !rooted {
                    parts.push("..");
                }
            }
            p => parts.push(p),
        }
    }
    let body = parts.join("/");
    match (rooted, body.is_empty()) {
        (true, _) => format!("/{body}"),
        (false, true) => ".".into(),
        (false, false) => body,
    }
}

fn has_meta(s: &str) -> bool {
    s.contains(['*', '?', '[', '\\'])
}

/// `filepath.Glob`: the names matching the pattern, sorted per directory; `Err` for a
/// malformed pattern (`ErrBadPattern`).
fn glob(pattern: &str, fs: &dyn FileSystem) -> Result<Vec<String>, ()> {
    // Check pattern is well-formed.
    match_pattern(pattern, "")?;
    if !has_meta(pattern) {
        return Ok(match fs.lstat(pattern) {
            Stat::File | Stat::Dir => vec![pattern.to_string()],
            _ => vec![],
        });
    }
    let (dir, file) = match pattern.rfind('/') {
        Some(i) => (&pattern[..=i], &pattern[i + 1..]),
        None => ("", pattern),
    };
    let dir = clean_glob_path(dir);
    if !has_meta(&dir) {
        return glob_in(&dir, file, fs);
    }
    let mut out = vec![];
    for d in glob(&dir, fs)? {
        out.extend(glob_in(&d, file, fs)?);
    }
    Ok(out)
}

/// `cleanGlobPath`.
fn clean_glob_path(path: &str) -> String {
    match path {
        "" => ".".into(),
        "/" => "/".into(),
        p => p[..p.len() - 1].to_string(),
    }
}

/// `filepath.glob`: the entries of `dir` matching `pattern`.
fn glob_in(dir: &str, pattern: &str, fs: &dyn FileSystem) -> Result<Vec<String>, ()> {
    if fs.stat(dir) != Stat::Dir {
        return Ok(vec![]);
    }
    let Ok(names) = fs.read_dir(dir) else {
        return Ok(vec![]);
    };
    let mut out = vec![];
    for n in names {
        if match_pattern(pattern, &n)? {
            out.push(join(dir, &n));
        }
    }
    Ok(out)
}

/// `filepath.Match` (Unix): `*`, `?`, `[class]` with ranges and `^` negation, `\` escapes;
/// `Err` for a malformed pattern.
fn match_pattern(pattern: &str, name: &str) -> Result<bool, ()> {
    let p: Vec<char> = pattern.chars().collect();
    let n: Vec<char> = name.chars().collect();
    // Validate the whole pattern first, as Go reports ErrBadPattern wherever it is.
    let mut i = 0;
    while i < p.len() {
        match p.get(i) {
            Some('\\') => {
                if i + 1 >= p.len() {
                    return Err(());
                }
                i += 2;
            }
            Some('[') => i = class_end(&p, i)?,
            _ => i += 1,
        }
    }
    Ok(match_from(&p, 0, &n, 0))
}

/// The index after the class starting at `p[start] == '['`.
fn class_end(p: &[char], start: usize) -> Result<usize, ()> {
    let mut i = start + 1;
    if p.get(i) == Some(&'^') {
        i += 1;
    }
    let mut first = true;
    loop {
        match p.get(i) {
            None => return Err(()),
            Some(']') if !first => return Ok(i + 1),
            Some(_) => {
                // lo
                i = class_char(p, i)?;
                if p.get(i) == Some(&'-') {
                    i = class_char(p, i + 1)?;
                }
            }
        }
        first = false;
    }
}

/// The index after one (possibly escaped) class character.
fn class_char(p: &[char], i: usize) -> Result<usize, ()> {
    match p.get(i) {
        None | Some('-') | Some(']') => Err(()),
        Some('\\') => {
            if i + 1 >= p.len() {
                Err(())
            } else {
                Ok(i + 2)
            }
        }
        Some(_) => Ok(i + 1),
    }
}

fn class_char_value(p: &[char], i: usize) -> char {
    if p.get(i) == Some(&'\\') {
        p.get(i + 1).copied().unwrap_or('\\')
    } else {
        p.get(i).copied().unwrap_or('\0')
    }
}

fn match_class(p: &[char], start: usize, c: char) -> bool {
    let mut i = start + 1;
    let negated = p.get(i) == Some(&'^');
    if negated {
        i += 1;
    }
    let mut matched = false;
    let mut first = true;
    while let Some(&x) = p.get(i) {
        if x == ']' && !first {
            break;
        }
        first = false;
        let lo = class_char_value(p, i);
        i = class_char(p, i).unwrap_or(p.len());
        let mut hi = lo;
        if p.get(i) == Some(&'-') {
            hi = class_char_value(p, i + 1);
            i = class_char(p, i + 1).unwrap_or(p.len());
        }
        if lo <= c && c <= hi {
            matched = true;
        }
    }
    matched != negated
}

fn match_from(p: &[char], pi: usize, n: &[char], ni: usize) -> bool {
    match p.get(pi) {
        None => ni == n.len(),
        Some('*') => (ni..=n.len())
            .take_while(|&k| k == ni || n.get(k - 1) != Some(&'/'))
            .any(|k| match_from(p, pi + 1, n, k)),
        Some('?') => n
            .get(ni)
            .is_some_and(|&c| c != '/' && match_from(p, pi + 1, n, ni + 1)),
        Some('[') => {
            let end = class_end(p, pi).unwrap_or(p.len());
            n.get(ni).is_some_and(|&c| {
                c != '/' && match_class(p, pi, c) && match_from(p, end, n, ni + 1)
            })
        }
        Some('\\') => {
            let lit = p.get(pi + 1).copied();
            n.get(ni).copied() == lit && lit.is_some() && match_from(p, pi + 2, n, ni + 1)
        }
        Some(&c) => n.get(ni) == Some(&c) && match_from(p, pi + 1, n, ni + 1),
    }
}
