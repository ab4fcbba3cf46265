//! IP address and CIDR validation (`k8s.io/apimachinery/pkg/util/validation/ip.go`): the
//! "sloppy" parser Kubernetes has always accepted (`netutils.ParseIPSloppy` /
//! `ParseCIDRSloppy`, Go 1.16's `net.ParseIP`, which ignores leading zeros in IPv4 octets), the
//! strict checks layered on it (no leading zeros, no IPv4-mapped IPv6, no bits beyond the
//! prefix) and the canonical-form requirement of the strict validators.

use crate::api::errors::{go_quote, FieldError};
use std::net::IpAddr;

const BIG: u32 = 0xFF_FFFF;
const INVALID_IP: &str = "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)";
const INVALID_CIDR: &str = "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)";

/// Go's `dtoi`: decimal digits at the start of `s` (value, digits consumed), failing on no
/// digits or a value of `0xFFFFFF` or more.
fn dtoi(s: &[u8]) -> Option<(u32, usize)> {
    let mut n: u32 = 0;
    let mut i = 0;
    while i < s.len() && s[i].is_ascii_digit() {
        n = n * 10 + u32::from(s[i] - b'0');
        if n >= BIG {
            return None;
        }
        i += 1;
    }
    (i > 0).then_some((n, i))
}

/// Go's `xtoi`: hexadecimal digits at the start of `s`.
fn xtoi(s: &[u8]) -> Option<(u32, usize)> {
    let mut n: u32 = 0;
    let mut i = 0;
    while i < s.len() {
        let d = match s[i] {
            c @ b'0'..=b'9' => c - b'0',
            c @ b'a'..=b'f' => c - b'a' + 10,
            c @ b'A'..=b'F' => c - b'A' + 10,
            _ => break,
        };
        n = n * 16 + u32::from(d);
        if n >= BIG {
            return None;
        }
        i += 1;
    }
    (i > 0).then_some((n, i))
}

/// Go 1.16 `parseIPv4` (leading zeros allowed).
fn parse_ipv4_sloppy(s: &[u8]) -> Option<[u8; 4]> {
    let mut p = [0u8; 4];
    let mut s = s;
    for (i, octet) in p.iter_mut().enumerate() {
        if s.is_empty() {
            return None;
        }
        if i > 0 {
            if s[0] != b'.' {
                return None;
            }
            s = &s[1..];
        }
        let (n, c) = dtoi(s)?;
        if n > 0xFF {
            return None;
        }
        s = &s[c..];
        *octet = n as u8;
    }
    s.is_empty().then_some(p)
}

/// Go 1.16 `parseIPv6` (no zone).
fn parse_ipv6_sloppy(s: &[u8]) -> Option<[u8; 16]> {
    let mut ip = [0u8; 16];
    let mut ellipsis: Option<usize> = None;
    let mut s = s;
    if s.len() >= 2 && s[0] == b':' && s[1] == b':' {
        ellipsis = Some(0);
        s = &s[2..];
        if s.is_empty() {
            return Some(ip);
        }
    }
    let mut i = 0;
    while i < 16 {
        let (n, c) = xtoi(s)?;
        if n > 0xFFFF {
            return None;
        }
        if c < s.len() && s[c] == b'.' {
            if ellipsis.is_none() && i != 12 {
                return None;
            }
            if i + 4 > 16 {
                return None;
            }
            let v4 = parse_ipv4_sloppy(s)?;
            ip[i..i + 4].copy_from_slice(&v4);
            s = &[];
            i += 4;
            break;
        }
        ip[i] = (n >> 8) as u8;
        ip[i + 1] = n as u8;
        i += 2;
        s = &s[c..];
        if s.is_empty() {
            break;
        }
        if s[0] != b':' || s.len() == 1 {
            return None;
        }
        s = &s[1..];
        if s[0] == b':' {
            if ellipsis.is_some() {
                return None;
            }
            ellipsis = Some(i);
            s = &s[1..];
            if s.is_empty() {
                break;
            }
        }
    }
    if !s.is_empty() {
        return None;
    }
    if i < 16 {
        let e = ellipsis?;
        let n = 16 - i;
        for j in (e..i).rev() {
            ip[j + n] = ip[j];
        }
        for b in ip.iter_mut().skip(e).take(n) {
            *b = 0;
        }
    } else if ellipsis.is_some() {
        return None;
    }
    Some(ip)
}

/// A parsed address as Go's `net.IP` holds it: 16 bytes, IPv4 as IPv4-mapped IPv6.
fn v4_in_16(p: [u8; 4]) -> [u8; 16] {
    let mut ip = [0u8; 16];
    ip[10] = 0xff;
    ip[11] = 0xff;
    ip[12..].copy_from_slice(&p);
    ip
}

fn is_v4_mapped(ip: &[u8; 16]) -> bool {
    ip[..10].iter().all(|&b| b == 0) && ip[10] == 0xff && ip[11] == 0xff
}

/// `netutils.ParseIPSloppy`.
fn parse_ip_sloppy(s: &str) -> Option<[u8; 16]> {
    let b = s.as_bytes();
    match b.iter().find(|&&c| c == b'.' || c == b':') {
        Some(b'.') => parse_ipv4_sloppy(b).map(v4_in_16),
        Some(b':') => parse_ipv6_sloppy(b),
        _ => None,
    }
}

/// Go's `net.IP.String` for a 16-byte address.
fn ip_string(ip: &[u8; 16]) -> String {
    if is_v4_mapped(ip) {
        return format!("{}.{}.{}.{}", ip[12], ip[13], ip[14], ip[15]);
    }
    let groups: Vec<u16> = ip
        .chunks(2)
        .map(|c| (u16::from(c[0]) << 8) | u16::from(c[1]))
        .collect();
    // The longest run of zero groups (at least two; the first such run on ties).
    let (mut e0, mut e1) = (-1i32, -1i32);
    let mut i = 0usize;
    while i < 8 {
        let mut j = i;
        while j < 8 && groups[j] == 0 {
            j += 1;
        }
        if j > i && j >= i + 2 && (j - i) as i32 > e1 - e0 {
            e0 = i as i32;
            e1 = j as i32;
        }
        i = j + 1;
    }
    let mut out = String::new();
    let mut k = 0i32;
    while k < 8 {
        if k == e0 {
            out.push_str("::");
            k = e1;
            if k >= 8 {
                break;
            }
        } else if k > 0 {
            out.push(':');
        }
        out.push_str(&format!("{:x}", groups[k as usize]));
        k += 1;
    }
    out
}

/// `parseIP`: the sloppy parse, then (when strict) no leading zeros and no IPv4-mapped IPv6.
fn parse_ip(path: &str, value: &str, strict: bool) -> (Option<[u8; 16]>, Vec<FieldError>) {
    let Some(ip) = parse_ip_sloppy(value) else {
        return (None, vec![FieldError::invalid(path, value, INVALID_IP)]);
    };
    let mut errs = vec![];
    if strict {
        match value.parse::<IpAddr>() {
            Err(_) => errs.push(FieldError::invalid(path, value, "must not have leading 0s")),
            Ok(IpAddr::V6(a)) if a.to_ipv4_mapped().is_some() => errs.push(FieldError::invalid(
                path,
                value,
                "must not be an IPv4-mapped IPv6 address",
            )),
            Ok(_) => {}
        }
    }
    (Some(ip), errs)
}

/// `IsValidIPForLegacyField`: an IP for a field that predates strict validation (non-canonical
/// forms allowed; leading zeros and IPv4-mapped IPv6 allowed unless `strict`), or one of the
/// old object's values.
pub fn is_valid_ip_for_legacy_field(
    path: &str,
    value: &str,
    strict: bool,
    valid_old_ips: &[String],
) -> Vec<FieldError> {
    if valid_old_ips.iter().any(|v| v == value) {
        return vec![];
    }
    parse_ip(path, value, strict).1
}

/// `IsValidIP`: a valid IP address in canonical form.
pub fn is_valid_ip(path: &str, value: &str) -> Vec<FieldError> {
    let (ip, mut errs) = parse_ip(path, value, true);
    if !errs.is_empty() {
        return errs;
    }
    if let Some(ip) = ip {
        let canonical = ip_string(&ip);
        if value != canonical {
            errs.push(FieldError::invalid(
                path,
                value,
                format!("must be in canonical form (\"{canonical}\")"),
            ));
        }
    }
    errs
}

/// A sloppily parsed CIDR: the network address (masked) and the prefix length, with whether
/// the address was written as IPv4.
struct Cidr {
    ip: [u8; 16],
    network: [u8; 16],
    bits: u32,
    is_v4: bool,
}

impl Cidr {
    /// Go's `IPNet.String` (an IPv4-mapped network prints as IPv4 with the prefix adjusted).
    fn ipnet_string(&self) -> String {
        if is_v4_mapped(&self.network) {
            let bits = if self.is_v4 {
                self.bits
            } else {
                self.bits - 96
            };
            format!("{}/{bits}", ip_string(&self.network))
        } else {
            format!("{}/{}", ip_string(&self.network), self.bits)
        }
    }
}

/// `netutils.ParseCIDRSloppy` (Go 1.16 `net.ParseCIDR`).
fn parse_cidr_sloppy(s: &str) -> Option<Cidr> {
    let (addr, mask) = s.split_once('/')?;
    let (ip, iplen) = match parse_ipv4_sloppy(addr.as_bytes()) {
        Some(p) => (v4_in_16(p), 4u32),
        None => (parse_ipv6_sloppy(addr.as_bytes())?, 16),
    };
    let (n, used) = dtoi(mask.as_bytes())?;
    if used != mask.len() || n > 8 * iplen {
        return None;
    }
    let total = if iplen == 4 { n + 96 } else { n };
    let mut network = ip;
    for (i, b) in network.iter_mut().enumerate() {
        let bit = (i as u32) * 8;
        if bit >= total {
            *b = 0;
        } else if total - bit < 8 {
            *b &= 0xffu8 << (8 - (total - bit));
        }
    }
    if iplen == 4 {
        // Go keeps the ::ffff: prefix of an IPv4 address when masking with an IPv4 mask.
        network[10] = 0xff;
        network[11] = 0xff;
    }
    Some(Cidr {
        ip,
        network,
        bits: n,
        is_v4: iplen == 4,
    })
}

/// `parseCIDR`: the sloppy parse, then (when strict) no leading zeros, no IPv4-mapped IPv6
/// address and no bits set beyond the prefix length.
fn parse_cidr(path: &str, value: &str, strict: bool) -> (Option<Cidr>, Vec<FieldError>) {
    let Some(cidr) = parse_cidr_sloppy(value) else {
        return (None, vec![FieldError::invalid(path, value, INVALID_CIDR)]);
    };
    let mut errs = vec![];
    if strict {
        // `netip.ParsePrefix`.
        let strict_parse = value.rsplit_once('/').and_then(|(a, b)| {
            let addr = a.parse::<IpAddr>().ok()?;
            if b.is_empty() || (b.len() > 1 && b.starts_with('0')) {
                return None;
            }
            let bits = b.parse::<u32>().ok()?;
            Some((addr, bits))
        });
        match strict_parse {
            None => errs.push(FieldError::invalid(
                path,
                value,
                "must not have leading 0s in IP or prefix length",
            )),
            Some((IpAddr::V6(a), _)) if a.to_ipv4_mapped().is_some() => {
                errs.push(FieldError::invalid(
                    path,
                    value,
                    "must not have an IPv4-mapped IPv6 address",
                ));
            }
            Some((addr, _)) => {
                let written = match addr {
                    IpAddr::V4(a) => v4_in_16(a.octets()),
                    IpAddr::V6(a) => a.octets(),
                };
                if written != cidr.network {
                    errs.push(FieldError::invalid(
                        path,
                        value,
                        "must not have bits set beyond the prefix length",
                    ));
                }
            }
        }
    }
    (Some(cidr), errs)
}

/// `IsValidCIDRForLegacyField`: a CIDR for a field that predates strict validation, or one
/// of the old object's values.
pub fn is_valid_cidr_for_legacy_field(
    path: &str,
    value: &str,
    strict: bool,
    valid_old_cidrs: &[String],
) -> Vec<FieldError> {
    if valid_old_cidrs.iter().any(|v| v == value) {
        return vec![];
    }
    parse_cidr(path, value, strict).1
}

/// `IsValidCIDR`: a valid CIDR in canonical form.
pub fn is_valid_cidr(path: &str, value: &str) -> Vec<FieldError> {
    let (cidr, mut errs) = parse_cidr(path, value, true);
    if !errs.is_empty() {
        return errs;
    }
    if let Some(c) = cidr {
        let canonical = c.ipnet_string();
        if value != canonical {
            errs.push(FieldError::invalid(
                path,
                value,
                format!("must be in canonical form (\"{canonical}\")"),
            ));
        }
    }
    errs
}

/// `IsValidInterfaceAddress`: an IP address with a prefix length (bits beyond the prefix
/// allowed), in canonical form.
pub fn is_valid_interface_address(path: &str, value: &str) -> Vec<FieldError> {
    let Some(c) = parse_cidr_sloppy(value) else {
        return vec![FieldError::invalid(
            path,
            value,
            "must be a valid address in CIDR form, (e.g. 10.9.8.7/24 or 2001:db8::1/64)",
        )];
    };
    let mut bits = c.bits;
    if is_v4_mapped(&c.ip) && bits > 32 {
        bits -= 96;
    }
    let canonical = format!("{}/{bits}", ip_string(&c.ip));
    if value != canonical {
        return vec![FieldError::invalid(
            path,
            value,
            format!("must be in canonical form ({})", go_quote(&canonical)),
        )];
    }
    vec![]
}

/// `GetWarningsForIP`: warnings for a value that passed the legacy (non-strict) check but is
/// not in the form strict validation wants.
pub fn get_warnings_for_ip(path: &str, value: &str) -> Vec<String> {
    let Some(ip) = parse_ip_sloppy(value) else {
        return vec![];
    };
    match value.parse::<IpAddr>() {
        Ok(IpAddr::V6(a)) if a.to_ipv4_mapped().is_none() => {
            let canonical = ip_string(&a.octets());
            if canonical != value {
                return vec![format!(
                    "{path}: IPv6 address {} should be in RFC 5952 canonical format ({})",
                    go_quote(value),
                    go_quote(&canonical)
                )];
            }
            vec![]
        }
        Ok(IpAddr::V4(_)) => vec![],
        _ => vec![format!(
            "{path}: non-standard IP address {} will be considered invalid in a future Kubernetes release: use {}",
            go_quote(value),
            go_quote(&ip_string(&ip))
        )],
    }
}

/// `GetWarningsForCIDR`: warnings for a CIDR that passed the legacy check: bits set beyond the
/// prefix, a non-standard form, or (otherwise) a non-canonical IPv6 form.
pub fn get_warnings_for_cidr(path: &str, value: &str) -> Vec<String> {
    let Some(c) = parse_cidr_sloppy(value) else {
        return vec![];
    };
    let mut warnings = vec![];
    if c.ip != c.network {
        let addrlen = if c.is_v4 { 32 } else { 128 };
        warnings.push(format!(
            "{path}: CIDR value {} is ambiguous in this context (should be {} or {}?)",
            go_quote(value),
            go_quote(&c.ipnet_string()),
            go_quote(&format!("{}/{addrlen}", ip_string(&c.ip)))
        ));
    }
    let strict = value.rsplit_once('/').and_then(|(a, b)| {
        let addr = a.parse::<IpAddr>().ok()?;
        if b.is_empty() || (b.len() > 1 && b.starts_with('0')) {
            return None;
        }
        Some((addr, b.parse::<u32>().ok()?))
    });
    match strict {
        Some((IpAddr::V6(a), _)) if a.to_ipv4_mapped().is_some() => warnings.push(format!(
            "{path}: non-standard CIDR value {} will be considered invalid in a future Kubernetes release: use {}",
            go_quote(value),
            go_quote(&c.ipnet_string())
        )),
        None => warnings.push(format!(
            "{path}: non-standard CIDR value {} will be considered invalid in a future Kubernetes release: use {}",
            go_quote(value),
            go_quote(&c.ipnet_string())
        )),
        Some((IpAddr::V6(a), bits)) if warnings.is_empty() => {
            let canonical = format!("{}/{bits}", ip_string(&a.octets()));
            if canonical != value {
                warnings.push(format!(
                    "{path}: IPv6 CIDR value {} should be in RFC 5952 canonical format ({})",
                    go_quote(value),
                    go_quote(&canonical)
                ));
            }
        }
        _ => {}
    }
    warnings
}

/// `ValidateNonSpecialIP` (pkg/apis/core/validation): no unspecified, loopback, link-local
/// unicast or link-local multicast address (endpoints and external IPs).
pub fn validate_non_special_ip(value: &str, path: &str) -> Vec<FieldError> {
    let Some(ip) = parse_ip_sloppy(value) else {
        return vec![FieldError::invalid(
            path,
            value,
            "must be a valid IP address",
        )];
    };
    let mut errs = vec![];
    let v4 = is_v4_mapped(&ip).then(|| [ip[12], ip[13], ip[14], ip[15]]);
    let unspecified = match v4 {
        Some(a) => a == [0, 0, 0, 0],
        None => ip == [0u8; 16],
    };
    let loopback = match v4 {
        Some(a) => a[0] == 127,
        None => ip[..15].iter().all(|&b| b == 0) && ip[15] == 1,
    };
    let link_local_unicast = match v4 {
        Some(a) => a[0] == 169 && a[1] == 254,
        None => ip[0] == 0xfe && ip[1] & 0xc0 == 0x80,
    };
    let link_local_multicast = match v4 {
        Some(a) => a[0] == 224 && a[1] == 0 && a[2] == 0,
        None => ip[0] == 0xff && ip[1] & 0x0f == 0x02,
    };
    if unspecified {
        errs.push(FieldError::invalid(
            path,
            value,
            format!("may not be unspecified ({value})"),
        ));
    }
    if loopback {
        errs.push(FieldError::invalid(
            path,
            value,
            "may not be in the loopback range (127.0.0.0/8, ::1/128)",
        ));
    }
    if link_local_unicast {
        errs.push(FieldError::invalid(
            path,
            value,
            "may not be in the link-local range (169.254.0.0/16, fe80::/10)",
        ));
    }
    if link_local_multicast {
        errs.push(FieldError::invalid(
            path,
            value,
            "may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)",
        ));
    }
    errs
}

/// Whether a (sloppily parsed) IP is IPv6 in `netutils.IsIPv6String`'s sense (an IPv4-mapped
/// IPv6 address counts as IPv4); `None` when it does not parse.
pub fn ip_is_ipv6(value: &str) -> Option<bool> {
    parse_ip_sloppy(value).map(|ip| !is_v4_mapped(&ip))
}

/// Whether a (sloppily parsed) CIDR is IPv6 in `netutils.IsIPv6CIDR`'s sense; `None` when it
/// does not parse.
pub fn cidr_is_ipv6(value: &str) -> Option<bool> {
    parse_cidr_sloppy(value).map(|c| !is_v4_mapped(&c.network))
}

#[cfg(test)]
#[path = "ip_tests.rs"]
mod tests;
