//! [`SharedStr`]: an immutable string whose copies share one allocation, and [`StrInterner`],
//! which hands out one shared copy per distinct value. The event list repeats the same kinds,
//! namespaces, reasons, components, hosts and field paths thousands of times a simulated hour.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::BTreeSet;
use std::sync::Arc;

/// An immutable string; cloning copies a pointer. Reads, compares, prints and serialises exactly
/// as the `str` it holds.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SharedStr(Arc<str>);

impl SharedStr {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Default for SharedStr {
    fn default() -> Self {
        SharedStr::from("")
    }
}

impl std::ops::Deref for SharedStr {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for SharedStr {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl std::borrow::Borrow<str> for SharedStr {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for SharedStr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.as_str().fmt(f)
    }
}

impl std::fmt::Display for SharedStr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.as_str().fmt(f)
    }
}

impl From<&str> for SharedStr {
    fn from(s: &str) -> Self {
        SharedStr(Arc::from(s))
    }
}

impl From<String> for SharedStr {
    fn from(s: String) -> Self {
        SharedStr(Arc::from(s))
    }
}

impl From<&String> for SharedStr {
    fn from(s: &String) -> Self {
        SharedStr::from(s.as_str())
    }
}

impl From<SharedStr> for String {
    fn from(s: SharedStr) -> Self {
        s.as_str().to_string()
    }
}

impl PartialEq<str> for SharedStr {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for SharedStr {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for SharedStr {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other.as_str()
    }
}

impl PartialEq<SharedStr> for str {
    fn eq(&self, other: &SharedStr) -> bool {
        self == other.as_str()
    }
}

impl PartialEq<SharedStr> for &str {
    fn eq(&self, other: &SharedStr) -> bool {
        *self == other.as_str()
    }
}

impl PartialEq<SharedStr> for String {
    fn eq(&self, other: &SharedStr) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Serialize for SharedStr {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for SharedStr {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d).map(SharedStr::from)
    }
}

/// One [`SharedStr`] per distinct value asked for. For values drawn from a small set (kinds,
/// namespaces, reasons, components, node names, container field paths); it keeps every value
/// it was given.
#[derive(Clone, Debug, Default)]
pub struct StrInterner {
    set: BTreeSet<SharedStr>,
}

impl StrInterner {
    /// The shared copy of `s` (made on the first request).
    pub fn get(&mut self, s: &str) -> SharedStr {
        if let Some(v) = self.set.get(s) {
            return v.clone();
        }
        let v = SharedStr::from(s);
        self.set.insert(v.clone());
        v
    }
}
