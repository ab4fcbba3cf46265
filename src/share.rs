//! Share links (`#v=1&s=` + base64url(deflate-raw(JSON))), decoded as `www/share.js` does, with
//! the same caps: a link never makes the decoder inflate past `MAX_DECODED_BYTES`.

use serde_json::Value;

/// Largest inflated payload accepted (the scenario text and journal together).
pub const MAX_DECODED_BYTES: usize = 256 * 1024;
/// Largest encoded `s=` value accepted (base64url characters).
pub const MAX_ENCODED_CHARS: usize = 200 * 1024;

/// One command the user ran, at a virtual time in seconds.
#[derive(Clone, Debug, PartialEq)]
pub struct JournalEntry {
    pub at: f64,
    pub cmd: String,
    pub stdin: Option<String>,
}

/// What a share link carries.
#[derive(Clone, Debug, PartialEq)]
pub struct Share {
    pub scenario: String,
    pub time: f64,
    pub journal: Vec<JournalEntry>,
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// base64url without padding.
pub fn to_base64url(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..=chunk.len() {
            out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
        }
    }
    out
}

/// Decodes base64url (padding optional), as `fromBase64Url` + `atob` accept it.
///
/// # Errors
/// A character outside the alphabet, or a length `atob` rejects.
pub fn from_base64url(text: &str) -> Result<Vec<u8>, String> {
    let text = text.trim_end_matches('=');
    if text.len() % 4 == 1 {
        return Err("the link's data is not base64url".into());
    }
    let mut out = Vec::with_capacity(text.len() / 4 * 3 + 2);
    let mut acc = 0u32;
    let mut bits = 0;
    for c in text.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'-' => 62,
            b'_' => 63,
            _ => return Err("the link's data is not base64url".into()),
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Ok(out)
}

/// The hash fragment (without `#`) for a state.
pub fn encode(s: &Share) -> String {
    let mut m = serde_json::Map::new();
    m.insert("s".into(), Value::from(s.scenario.clone()));
    m.insert("t".into(), Value::from(s.time));
    if !s.journal.is_empty() {
        let j: Vec<Value> = s
            .journal
            .iter()
            .map(|e| {
                let mut o = serde_json::Map::new();
                o.insert("at".into(), Value::from(e.at));
                o.insert("cmd".into(), Value::from(e.cmd.clone()));
                if let Some(i) = &e.stdin {
                    o.insert("stdin".into(), Value::from(i.clone()));
                }
                Value::Object(o)
            })
            .collect();
        m.insert("j".into(), Value::Array(j));
    }
    let json = serde_json::to_vec(&Value::Object(m)).unwrap_or_default();
    let deflated = miniz_oxide::deflate::compress_to_vec(&json, 9);
    format!("v=1&s={}", to_base64url(&deflated))
}

/// `URLSearchParams` value lookup (first occurrence, `+` as space, percent-decoding).
fn param(query: &str, key: &str) -> Option<String> {
    query.split('&').find_map(|kv| {
        let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
        (percent_decode(k) == key).then(|| percent_decode(v))
    })
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < b.len() => {
                let hex = std::str::from_utf8(&b[i + 1..i + 3]).ok();
                match hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                    Some(v) => {
                        out.push(v);
                        i += 2;
                    }
                    None => out.push(b'%'),
                }
            }
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Decodes a hash fragment as `decodeShare` does: `Ok(None)` when it is no share link, an
/// error message for the user when it is one but broken, oversized or malformed.
///
/// # Errors
/// The page's messages (`the share link is damaged (...)`, `... is larger than 256 KiB`, ...).
pub fn decode(hash: &str) -> Result<Option<Share>, String> {
    let q = hash.strip_prefix('#').unwrap_or(hash);
    let (v, s) = (param(q, "v"), param(q, "s"));
    if v.is_none() && s.is_none() {
        return Ok(None);
    }
    if v.as_deref() != Some("1") {
        let shown = v.map_or("null".to_string(), |v| {
            serde_json::to_string(&v).unwrap_or_default()
        });
        return Err(format!("unsupported share link version {shown}"));
    }
    let data = s.unwrap_or_default();
    if data.len() > MAX_ENCODED_CHARS {
        return Err("the share link is too large".into());
    }
    let bytes = from_base64url(&data).map_err(|e| format!("the share link is damaged ({e})"))?;
    // Bounded: the inflater stops (and fails) at the cap instead of growing past it.
    let inflated = miniz_oxide::inflate::decompress_to_vec_with_limit(&bytes, MAX_DECODED_BYTES)
        .map_err(|e| {
            if e.status == miniz_oxide::inflate::TINFLStatus::HasMoreOutput {
                format!(
                    "the share link's scenario is larger than {} KiB",
                    MAX_DECODED_BYTES / 1024
                )
            } else {
                "the share link is damaged (it does not inflate)".to_string()
            }
        })?;
    let text =
        std::str::from_utf8(&inflated).map_err(|_| "the share link is damaged (not JSON)")?;
    let v: Value = serde_json::from_str(text)
        .map_err(|_| "the share link is damaged (not JSON)".to_string())?;
    let Some(scenario) = v.get("s").and_then(Value::as_str) else {
        return Err("the share link holds no scenario".into());
    };
    let num = |x: Option<&Value>| -> Option<f64> {
        match x {
            None | Some(Value::Null) => Some(0.0),
            Some(Value::Number(n)) => n.as_f64(),
            Some(Value::String(s)) => s.trim().parse().ok(),
            Some(Value::Bool(b)) => Some(f64::from(u8::from(*b))),
            _ => None,
        }
    };
    let t = num(v.get("t")).filter(|t| t.is_finite() && *t >= 0.0 && *t <= 1e7);
    let Some(time) = t else {
        return Err("the share link's time is invalid".into());
    };
    let mut journal = vec![];
    if let Some(j) = v.get("j") {
        let bad = || "the share link's commands are invalid".to_string();
        let items = j.as_array().filter(|a| a.len() <= 1000).ok_or_else(bad)?;
        for e in items {
            let at = e.get("at").and_then(|x| num(Some(x)));
            let cmd = e.get("cmd").and_then(Value::as_str);
            match (at, cmd) {
                (Some(at), Some(cmd)) if at.is_finite() && at >= 0.0 => {
                    journal.push(JournalEntry {
                        at,
                        cmd: cmd.to_string(),
                        stdin: e.get("stdin").and_then(Value::as_str).map(str::to_string),
                    })
                }
                _ => return Err(bad()),
            }
        }
    }
    Ok(Some(Share {
        scenario: scenario.to_string(),
        time,
        journal,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_caps() {
        let s = Share {
            scenario: "kind: Scenario\n<script>alert(1)</script> ü".into(),
            time: 12.5,
            journal: vec![JournalEntry {
                at: 3.0,
                cmd: "apply -f -".into(),
                stdin: Some("a: b".into()),
            }],
        };
        let link = encode(&s);
        assert!(link.starts_with("v=1&s="));
        assert_eq!(decode(&format!("#{link}")).unwrap(), Some(s));
        assert_eq!(decode("#foo=bar").unwrap(), None);
        assert_eq!(
            decode("#v=2&s=x").unwrap_err(),
            "unsupported share link version \"2\""
        );
        assert!(decode("#v=1&s=!!").unwrap_err().contains("not base64url"));
        assert!(decode("#v=1&s=AAAA")
            .unwrap_err()
            .contains("does not inflate"));
        // A deflate bomb: 10 MiB of spaces compresses to a few KiB and must stop at the cap.
        let bomb = miniz_oxide::deflate::compress_to_vec(&vec![b' '; 10 << 20], 9);
        let e = decode(&format!("v=1&s={}", to_base64url(&bomb))).unwrap_err();
        assert_eq!(e, "the share link's scenario is larger than 256 KiB");
        let json = miniz_oxide::deflate::compress_to_vec(br#"{"s":"x","t":-1}"#, 9);
        assert_eq!(
            decode(&format!("v=1&s={}", to_base64url(&json))).unwrap_err(),
            "the share link's time is invalid"
        );
    }

    #[test]
    fn base64url_matches_the_standard_alphabet() {
        for n in 0..40u8 {
            let bytes: Vec<u8> = (0..n)
                .map(|i| i.wrapping_mul(37).wrapping_add(250))
                .collect();
            assert_eq!(from_base64url(&to_base64url(&bytes)).unwrap(), bytes);
        }
        assert_eq!(to_base64url(b"\xfb\xff"), "-_8");
    }
}
