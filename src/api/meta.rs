//! `metav1` types: ObjectMeta, OwnerReference, LabelSelector and selector matching.

use super::time::Time;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub type Labels = BTreeMap<String, String>;

/// Object metadata fields shared between copies of an object until one of them changes it
/// (copy on write through [`DerefMut`](std::ops::DerefMut)): labels, annotations, owner
/// references, finalizers. Controllers, the store's versions and watch events clone object
/// metadata many times per write; this makes those clones copy a pointer instead of every key
/// and value. It reads, prints, compares and serialises exactly as the value it holds.
#[derive(Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Shared<T: Clone>(std::sync::Arc<T>);

/// `metadata.labels` / `metadata.annotations`.
pub type SharedMap = Shared<Labels>;

impl<T: Clone> Shared<T> {
    /// Whether both hold the very same value (one was copied from the other and neither has
    /// been written since).
    pub fn ptr_eq(a: &Self, b: &Self) -> bool {
        std::sync::Arc::ptr_eq(&a.0, &b.0)
    }

    /// The value, to keep or change (copied only if shared).
    pub fn into_inner(self) -> T {
        std::sync::Arc::try_unwrap(self.0).unwrap_or_else(|a| (*a).clone())
    }
}

impl<T: Clone> std::ops::Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: Clone> std::ops::DerefMut for Shared<T> {
    fn deref_mut(&mut self) -> &mut T {
        std::sync::Arc::make_mut(&mut self.0)
    }
}

impl<T: Clone + std::fmt::Debug> std::fmt::Debug for Shared<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl<T: Clone> From<T> for Shared<T> {
    fn from(v: T) -> Self {
        Shared(std::sync::Arc::new(v))
    }
}

impl<const N: usize> From<[(String, String); N]> for SharedMap {
    fn from(a: [(String, String); N]) -> Self {
        SharedMap::from(Labels::from(a))
    }
}

impl From<SharedMap> for Labels {
    fn from(m: SharedMap) -> Self {
        m.into_inner()
    }
}

impl<T: Clone> From<Shared<Vec<T>>> for Vec<T> {
    fn from(m: Shared<Vec<T>>) -> Self {
        m.into_inner()
    }
}

impl<T: Clone + PartialEq> PartialEq<T> for Shared<T> {
    fn eq(&self, other: &T) -> bool {
        *self.0 == *other
    }
}

impl PartialEq<SharedMap> for Labels {
    fn eq(&self, other: &SharedMap) -> bool {
        *self == *other.0
    }
}

impl<T: Clone + PartialEq> PartialEq<Shared<Vec<T>>> for Vec<T> {
    fn eq(&self, other: &Shared<Vec<T>>) -> bool {
        *self == *other.0
    }
}

impl FromIterator<(String, String)> for SharedMap {
    fn from_iter<I: IntoIterator<Item = (String, String)>>(iter: I) -> Self {
        SharedMap::from(iter.into_iter().collect::<Labels>())
    }
}

impl<T: Clone> FromIterator<T> for Shared<Vec<T>> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        Shared::from(iter.into_iter().collect::<Vec<T>>())
    }
}

impl<'a, T: Clone> IntoIterator for &'a Shared<T>
where
    &'a T: IntoIterator,
{
    type Item = <&'a T as IntoIterator>::Item;
    type IntoIter = <&'a T as IntoIterator>::IntoIter;
    fn into_iter(self) -> Self::IntoIter {
        (&*self.0).into_iter()
    }
}

impl<T: Clone + IntoIterator> IntoIterator for Shared<T> {
    type Item = T::Item;
    type IntoIter = T::IntoIter;
    fn into_iter(self) -> Self::IntoIter {
        self.into_inner().into_iter()
    }
}

impl<A, T: Clone + Extend<A>> Extend<A> for Shared<T> {
    fn extend<I: IntoIterator<Item = A>>(&mut self, iter: I) {
        std::sync::Arc::make_mut(&mut self.0).extend(iter);
    }
}

impl<T: Clone + Serialize> Serialize for Shared<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl<'de, T: Clone + Deserialize<'de>> Deserialize<'de> for Shared<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        T::deserialize(d).map(Shared::from)
    }
}

/// `metadata` as Kubernetes writes it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ObjectMeta {
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub generate_name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub namespace: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub uid: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub resource_version: String,
    #[serde(default, skip_serializing_if = "is_zero_i64")]
    pub generation: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub creation_timestamp: Option<Time>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deletion_timestamp: Option<Time>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deletion_grace_period_seconds: Option<i64>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: SharedMap,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub annotations: SharedMap,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub owner_references: Shared<Vec<OwnerReference>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub finalizers: Shared<Vec<String>>,
    /// managedFields and anything else metav1 carries that kubeplay does not model: kept so a
    /// pasted `kubectl get -o yaml` round-trips.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub managed_fields: Option<serde_json::Value>,
}

pub(crate) fn is_zero_i64(v: &i64) -> bool {
    *v == 0
}
pub(crate) fn is_zero_i32(v: &i32) -> bool {
    *v == 0
}
pub(crate) fn is_false(v: &bool) -> bool {
    !*v
}

impl ObjectMeta {
    /// The owner reference with `controller: true`, if any (`metav1.GetControllerOf`).
    pub fn controller_ref(&self) -> Option<&OwnerReference> {
        self.owner_references
            .iter()
            .find(|r| r.controller == Some(true))
    }

    pub fn is_being_deleted(&self) -> bool {
        self.deletion_timestamp.is_some()
    }

    pub fn has_finalizer(&self, f: &str) -> bool {
        self.finalizers.iter().any(|x| x == f)
    }

    /// `namespace/name` (or `name` for cluster-scoped objects), the work-queue key.
    pub fn key(&self) -> String {
        if self.namespace.is_empty() {
            self.name.clone()
        } else {
            [self.namespace.as_str(), "/", self.name.as_str()].concat()
        }
    }

    /// [`ObjectMeta::key`] written into `buf` (cleared first), reusing its allocation.
    pub fn write_key(&self, buf: &mut String) {
        buf.clear();
        if !self.namespace.is_empty() {
            buf.push_str(&self.namespace);
            buf.push('/');
        }
        buf.push_str(&self.name);
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OwnerReference {
    pub api_version: String,
    pub kind: String,
    pub name: String,
    pub uid: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub controller: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub block_owner_deletion: Option<bool>,
}

/// `metav1.LabelSelector`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LabelSelector {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub match_labels: Option<Labels>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub match_expressions: Option<Vec<LabelSelectorRequirement>>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LabelSelectorRequirement {
    pub key: String,
    pub operator: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub values: Option<Vec<String>>,
}

/// One requirement of a compiled selector (`labels.Requirement`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Requirement {
    In(String, Vec<String>),
    NotIn(String, Vec<String>),
    Exists(String),
    DoesNotExist(String),
    /// `key!=value` from a kubectl `-l` string: matches when absent too.
    NotEquals(String, String),
}

impl Requirement {
    pub fn matches(&self, labels: &Labels) -> bool {
        match self {
            Requirement::In(k, vs) => labels.get(k).is_some_and(|v| vs.contains(v)),
            Requirement::NotIn(k, vs) => labels.get(k).is_none_or(|v| !vs.contains(v)),
            Requirement::Exists(k) => labels.contains_key(k),
            Requirement::DoesNotExist(k) => !labels.contains_key(k),
            Requirement::NotEquals(k, v) => labels.get(k) != Some(v),
        }
    }
    pub fn key(&self) -> &str {
        match self {
            Requirement::In(k, _)
            | Requirement::NotIn(k, _)
            | Requirement::Exists(k)
            | Requirement::DoesNotExist(k)
            | Requirement::NotEquals(k, _) => k,
        }
    }
}

/// A compiled selector (`labels.Selector`). `Nothing` matches no object (a nil LabelSelector);
/// an empty requirement list matches everything (`{}`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Selector {
    Nothing,
    Requirements(Vec<Requirement>),
}

impl Selector {
    pub fn everything() -> Selector {
        Selector::Requirements(vec![])
    }

    pub fn matches(&self, labels: &Labels) -> bool {
        match self {
            Selector::Nothing => false,
            Selector::Requirements(rs) => rs.iter().all(|r| r.matches(labels)),
        }
    }

    pub fn is_empty(&self) -> bool {
        matches!(self, Selector::Requirements(r) if r.is_empty())
    }

    /// `labels.SelectorFromSet`: a map selector (ReplicationController, nodeSelector).
    /// An empty map selects everything, as upstream's `SelectorFromSet` does.
    pub fn from_map(m: &Labels) -> Selector {
        Selector::Requirements(
            m.iter()
                .map(|(k, v)| Requirement::In(k.clone(), vec![v.clone()]))
                .collect(),
        )
    }

    /// Parses kubectl's `-l` syntax: `a=b,c!=d,e in (x,y),f notin (z),g,!h`.
    ///
    /// # Errors
    /// kubectl's wording for an unparseable selector.
    pub fn parse(s: &str) -> Result<Selector, String> {
        let mut reqs = vec![];
        let mut parts = vec![];
        let (mut depth, mut start) = (0, 0);
        for (i, c) in s.char_indices() {
            match c {
                '(' => depth += 1,
                ')' => depth -= 1,
                ',' if depth == 0 => {
                    parts.push(&s[start..i]);
                    start = i + 1;
                }
                _ => {}
            }
        }
        parts.push(&s[start..]);
        let bad = |p: &str| {
            format!(
                "unable to parse requirement: found '{}', expected: identifier",
                p.trim()
            )
        };
        for p in parts {
            let p = p.trim();
            if p.is_empty() {
                if s.trim().is_empty() {
                    continue;
                }
                return Err(bad(p));
            }
            let set_op = |kw: &str| -> Option<(String, Vec<String>)> {
                let idx = p.find(kw)?;
                let key = p[..idx].trim().to_string();
                let rest = p[idx + kw.len()..].trim();
                let inner = rest.strip_prefix('(')?.strip_suffix(')')?;
                let vals = inner
                    .split(',')
                    .map(|v| v.trim().to_string())
                    .filter(|v| !v.is_empty())
                    .collect();
                Some((key, vals))
            };
            // A key followed by a second word (`cheddar cheese=x`): labels.Parser's
            // parseOperator finds the word where an operator should be.
            let op_at = p.find(['=', '!']).unwrap_or(p.len());
            if !p.contains('(') {
                if let Some(second) = p[..op_at].split_whitespace().nth(1) {
                    return Err(format!(
                        "unable to parse requirement: found '{second}', expected: in, notin, =, ==, !=, gt, lt"
                    ));
                }
            }
            if let Some((k, v)) = set_op(" notin ") {
                reqs.push(Requirement::NotIn(k, v));
            } else if let Some((k, v)) = set_op(" in ") {
                reqs.push(Requirement::In(k, v));
            } else if let Some((k, v)) = p.split_once("!=") {
                reqs.push(Requirement::NotEquals(k.trim().into(), v.trim().into()));
            } else if let Some((k, v)) = p.split_once("==").or_else(|| p.split_once('=')) {
                reqs.push(Requirement::In(k.trim().into(), vec![v.trim().into()]));
            } else if let Some(k) = p.strip_prefix('!') {
                reqs.push(Requirement::DoesNotExist(k.trim().into()));
            } else if p.contains(|c: char| c.is_whitespace() || c == '(' || c == ')') {
                return Err(bad(p));
            } else {
                reqs.push(Requirement::Exists(p.into()));
            }
        }
        Ok(Selector::Requirements(reqs))
    }
}

impl LabelSelector {
    /// `metav1.LabelSelectorAsSelector`.
    ///
    /// # Errors
    /// An unknown operator, or values given to Exists/DoesNotExist, or none given to In/NotIn.
    pub fn to_selector(&self) -> Result<Selector, String> {
        let mut reqs = vec![];
        for (k, v) in self.match_labels.iter().flatten() {
            reqs.push(Requirement::In(k.clone(), vec![v.clone()]));
        }
        for e in self.match_expressions.iter().flatten() {
            let vals = e.values.clone().unwrap_or_default();
            let r = match e.operator.as_str() {
                "In" | "NotIn" if vals.is_empty() => {
                    return Err("for 'in', 'notin' operators, values set can't be empty".into())
                }
                "In" => Requirement::In(e.key.clone(), vals),
                "NotIn" => Requirement::NotIn(e.key.clone(), vals),
                "Exists" | "DoesNotExist" if !vals.is_empty() => {
                    return Err("values set must be empty for exists and does not exist".to_string())
                }
                "Exists" => Requirement::Exists(e.key.clone()),
                "DoesNotExist" => Requirement::DoesNotExist(e.key.clone()),
                op => return Err(format!("{op:?} is not a valid label selector operator")),
            };
            reqs.push(r);
        }
        Ok(Selector::Requirements(reqs))
    }

    pub fn is_empty(&self) -> bool {
        self.match_labels.as_ref().is_none_or(|m| m.is_empty())
            && self.match_expressions.as_ref().is_none_or(|m| m.is_empty())
    }

    /// Convenience: a selector of equality terms.
    pub fn from_labels(l: &Labels) -> LabelSelector {
        LabelSelector {
            match_labels: Some(l.clone()),
            match_expressions: None,
        }
    }

    /// kubectl's printing of a selector (`app=web,tier in (a,b)`), as in the SELECTOR column.
    pub fn to_kubectl_string(&self) -> String {
        let mut parts: Vec<String> = vec![];
        for (k, v) in self.match_labels.iter().flatten() {
            parts.push(format!("{k}={v}"));
        }
        for e in self.match_expressions.iter().flatten() {
            let vals = e.values.clone().unwrap_or_default().join(",");
            parts.push(match e.operator.as_str() {
                "In" => format!("{} in ({vals})", e.key),
                "NotIn" => format!("{} notin ({vals})", e.key),
                "Exists" => e.key.clone(),
                "DoesNotExist" => format!("!{}", e.key),
                o => format!("{} {o} ({vals})", e.key),
            });
        }
        if parts.is_empty() {
            "<none>".into()
        } else {
            crate::sort::sort(&mut parts);
            parts.join(",")
        }
    }
}

/// `k=v,k2=v2` for a label map (kubectl's LABELS column), `<none>` when empty.
pub fn labels_string(l: &Labels) -> String {
    if l.is_empty() {
        return "<none>".into();
    }
    l.iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_metadata_is_copied_on_write_and_serialises_as_the_plain_value() {
        let mut a = ObjectMeta {
            name: "web".into(),
            labels: Labels::from([("app".to_string(), "web".to_string())]).into(),
            finalizers: vec!["f/one".to_string()].into(),
            ..Default::default()
        };
        let b = a.clone();
        // A clone shares the maps and lists ...
        assert!(std::sync::Arc::ptr_eq(&a.labels.0, &b.labels.0));
        assert!(std::sync::Arc::ptr_eq(&a.finalizers.0, &b.finalizers.0));
        // ... until one side changes them: the other keeps its value.
        a.labels.insert("tier".into(), "front".into());
        a.finalizers.retain(|f| f != "f/one");
        assert_eq!(a.labels.len(), 2);
        assert_eq!(b.labels.len(), 1);
        assert!(a.finalizers.is_empty());
        assert_eq!(*b.finalizers, vec!["f/one".to_string()]);
        assert_ne!(a, b);
        // The JSON is that of the plain map and list; empty ones are omitted.
        assert_eq!(
            serde_json::to_value(&b).unwrap(),
            serde_json::json!({"name": "web", "labels": {"app": "web"}, "finalizers": ["f/one"]})
        );
        assert_eq!(
            serde_json::to_value(&a).unwrap(),
            serde_json::json!({"name": "web", "labels": {"app": "web", "tier": "front"}})
        );
        let back: ObjectMeta = serde_json::from_value(serde_json::to_value(&b).unwrap()).unwrap();
        assert_eq!(back, b);
        // Debug output is the plain value's (traces and test messages print it).
        assert_eq!(format!("{:?}", b.labels), r#"{"app": "web"}"#);
    }

    fn labels(pairs: &[(&str, &str)]) -> Labels {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn label_selector_operators() {
        let sel = LabelSelector {
            match_labels: Some(labels(&[("tier", "frontend")])),
            match_expressions: Some(vec![
                LabelSelectorRequirement {
                    key: "env".into(),
                    operator: "In".into(),
                    values: Some(vec!["prod".into(), "qa".into()]),
                },
                LabelSelectorRequirement {
                    key: "canary".into(),
                    operator: "DoesNotExist".into(),
                    values: None,
                },
            ]),
        }
        .to_selector()
        .unwrap();
        assert!(sel.matches(&labels(&[("tier", "frontend"), ("env", "qa")])));
        assert!(!sel.matches(&labels(&[("tier", "frontend"), ("env", "dev")])));
        assert!(!sel.matches(&labels(&[
            ("tier", "frontend"),
            ("env", "qa"),
            ("canary", "1")
        ])));
        assert!(!Selector::Nothing.matches(&labels(&[])));
        assert!(LabelSelector::default()
            .to_selector()
            .unwrap()
            .matches(&labels(&[("x", "y")])));
        let bad = LabelSelector {
            match_labels: None,
            match_expressions: Some(vec![LabelSelectorRequirement {
                key: "a".into(),
                operator: "Foo".into(),
                values: None,
            }]),
        };
        assert!(bad.to_selector().is_err());
    }

    #[test]
    fn kubectl_selector_syntax() {
        let s = Selector::parse("app=web,env in (a, b),!canary,tier!=db,track").unwrap();
        assert!(s.matches(&labels(&[("app", "web"), ("env", "b"), ("track", "x")])));
        assert!(!s.matches(&labels(&[("app", "web"), ("env", "c"), ("track", "x")])));
        assert!(!s.matches(&labels(&[
            ("app", "web"),
            ("env", "a"),
            ("track", "x"),
            ("tier", "db")
        ])));
        assert!(Selector::parse("").unwrap().is_empty());
    }
}
