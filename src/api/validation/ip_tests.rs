//! Ports of TestIsValidIP, TestIsValidCIDR, TestGetWarningsForIP, TestGetWarningsForCIDR and TestIsValidInterfaceAddress
//! (staging/src/k8s.io/apimachinery/pkg/util/validation/ip_test.go), with the same four checks
//! per row as upstream: the strict validator, the legacy validator without and with strict
//! parsing, and the legacy validator given the bad values as the old object's values.

use super::*;

type Row = (
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
);

fn check(
    rows: &[Row],
    strict_fn: fn(&str, &str) -> Vec<FieldError>,
    legacy_fn: fn(&str, &str, bool, &[String]) -> Vec<FieldError>,
) {
    let bad: Vec<String> = rows
        .iter()
        .filter(|r| !r.4.is_empty())
        .map(|r| r.1.to_string())
        .collect();
    let expect = |name: &str, what: &str, errs: Vec<FieldError>, want: &str| {
        if want.is_empty() {
            assert!(errs.is_empty(), "{name} ({what}): unexpected {errs:?}");
        } else {
            assert_eq!(errs.len(), 1, "{name} ({what}): {errs:?}");
            assert!(
                errs[0].detail.contains(want),
                "{name} ({what}): {:?} does not contain {want:?}",
                errs[0].detail
            );
            assert_eq!(errs[0].field, "field", "{name} ({what})");
        }
    };
    for &(name, input, err, legacy, legacy_strict) in rows {
        expect(name, "strict", strict_fn("field", input), err);
        expect(
            name,
            "legacy",
            legacy_fn("field", input, false, &[]),
            legacy,
        );
        expect(
            name,
            "legacy strict",
            legacy_fn("field", input, true, &[]),
            legacy_strict,
        );
        assert!(
            legacy_fn("field", input, true, &bad).is_empty(),
            "{name}: an old value is accepted"
        );
    }
}

#[test]
fn is_valid_ip_table() {
    const BAD: &str = "must be a valid IP address";
    let rows: &[Row] = &[
        ("ipv4", "1.2.3.4", "", "", ""),
        ("ipv4, all zeros", "0.0.0.0", "", "", ""),
        ("ipv4, max", "255.255.255.255", "", "", ""),
        ("ipv6", "1234::abcd", "", "", ""),
        ("ipv6, all zeros, collapsed", "::", "", "", ""),
        (
            "ipv6, max",
            "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
            "",
            "",
            "",
        ),
        (
            "ipv6, all zeros, expanded (non-canonical)",
            "0:0:0:0:0:0:0:0",
            r#"must be in canonical form ("::")"#,
            "",
            "",
        ),
        (
            "ipv6, leading 0s (non-canonical)",
            "0001:002:03:4::",
            r#"must be in canonical form ("1:2:3:4::")"#,
            "",
            "",
        ),
        (
            "ipv6, capital letters (non-canonical)",
            "1234::ABCD",
            r#"must be in canonical form ("1234::abcd")"#,
            "",
            "",
        ),
        (
            "ipv4 with leading 0s",
            "1.1.1.01",
            "must not have leading 0s",
            "",
            "must not have leading 0s",
        ),
        (
            "ipv4-in-ipv6 value",
            "::ffff:1.1.1.1",
            "must not be an IPv4-mapped IPv6 address",
            "",
            "must not be an IPv4-mapped IPv6 address",
        ),
        ("empty string", "", BAD, BAD, BAD),
        ("junk", "aaaaaaa", BAD, BAD, BAD),
        ("domain name", "myhost.mydomain", BAD, BAD, BAD),
        ("cidr", "1.2.3.0/24", BAD, BAD, BAD),
        ("ipv4 with out-of-range octets", "1.2.3.400", BAD, BAD, BAD),
        ("ipv4 with negative octets", "-1.0.0.0", BAD, BAD, BAD),
        (
            "ipv6 with out-of-range segment",
            "2001:db8::10005",
            BAD,
            BAD,
            BAD,
        ),
        ("ipv4:port", "1.2.3.4:80", BAD, BAD, BAD),
        ("ipv6 with brackets", "[2001:db8::1]", BAD, BAD, BAD),
        ("[ipv6]:port", "[2001:db8::1]:80", BAD, BAD, BAD),
        ("host:port", "example.com:80", BAD, BAD, BAD),
        ("ipv6 with zone", "1234::abcd%eth0", BAD, BAD, BAD),
        ("ipv4 with zone", "169.254.0.0%eth0", BAD, BAD, BAD),
    ];
    check(rows, is_valid_ip, is_valid_ip_for_legacy_field);
    // The whole message of the parse failure.
    assert_eq!(
        is_valid_ip("spec.clusterIPs[0]", "invalid")[0].to_string(),
        r#"spec.clusterIPs[0]: Invalid value: "invalid": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"#
    );
}

#[test]
fn is_valid_cidr_table() {
    const BAD: &str = "must be a valid CIDR value";
    let rows: &[Row] = &[
        ("ipv4", "1.0.0.0/8", "", "", ""),
        ("ipv4, all IPs", "0.0.0.0/0", "", "", ""),
        ("ipv4, single IP", "1.1.1.1/32", "", "", ""),
        ("ipv6", "2001:4860:4860::/48", "", "", ""),
        ("ipv6, all IPs", "::/0", "", "", ""),
        ("ipv6, single IP", "::1/128", "", "", ""),
        (
            "ipv6, extra 0s (non-canonical)",
            "2a00:79e0:2:0::/64",
            r#"must be in canonical form ("2a00:79e0:2::/64")"#,
            "",
            "",
        ),
        (
            "ipv6, capital letters (non-canonical)",
            "2001:DB8::/64",
            r#"must be in canonical form ("2001:db8::/64")"#,
            "",
            "",
        ),
        (
            "ipv4 with leading 0s",
            "1.1.01.0/24",
            "must not have leading 0s in IP",
            "",
            "must not have leading 0s in IP",
        ),
        (
            "ipv4-in-ipv6 with ipv4-sized prefix",
            "::ffff:1.1.1.0/24",
            "must not have an IPv4-mapped IPv6 address",
            "",
            "must not have an IPv4-mapped IPv6 address",
        ),
        (
            "ipv4-in-ipv6 with ipv6-sized prefix",
            "::ffff:1.1.1.0/120",
            "must not have an IPv4-mapped IPv6 address",
            "",
            "must not have an IPv4-mapped IPv6 address",
        ),
        (
            "ipv4 ifaddr",
            "1.2.3.4/24",
            "must not have bits set beyond the prefix length",
            "",
            "must not have bits set beyond the prefix length",
        ),
        (
            "ipv6 ifaddr",
            "2001:db8::1/64",
            "must not have bits set beyond the prefix length",
            "",
            "must not have bits set beyond the prefix length",
        ),
        (
            "prefix length with leading 0s",
            "192.168.0.0/016",
            "must not have leading 0s",
            "",
            "must not have leading 0s",
        ),
        ("empty string", "", BAD, BAD, BAD),
        ("junk", "aaaaaaa", BAD, BAD, BAD),
        ("IP address", "1.2.3.4", BAD, BAD, BAD),
        ("partial URL", "192.168.0.1/healthz", BAD, BAD, BAD),
        ("partial URL 2", "192.168.0.1/0/99", BAD, BAD, BAD),
        ("negative prefix length", "192.168.0.0/-16", BAD, BAD, BAD),
        ("prefix length with sign", "192.168.0.0/+16", BAD, BAD, BAD),
    ];
    check(rows, is_valid_cidr, is_valid_cidr_for_legacy_field);
    assert_eq!(
        is_valid_cidr("spec.podCIDRs[0]", "192.168.0.0")[0].to_string(),
        r#"spec.podCIDRs[0]: Invalid value: "192.168.0.0": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)"#
    );
}

// TestGetWarningsForIP (v0.35.0 wording).
#[test]
fn get_warnings_for_ip_table() {
    let rows: &[(&str, &str, &str, &[&str])] = &[
        ("IPv4 No failures", "spec.clusterIPs[0]", "192.12.2.2", &[]),
        ("IPv6 No failures", "spec.clusterIPs[0]", "2001:db8::2", &[]),
        (
            "IPv4 with leading zeros",
            "spec.clusterIPs[0]",
            "192.012.2.2",
            &[
                r#"spec.clusterIPs[0]: non-standard IP address "192.012.2.2" will be considered invalid in a future Kubernetes release: use "192.12.2.2""#,
            ],
        ),
        (
            "IPv4-mapped IPv6",
            "spec.clusterIPs[0]",
            "::ffff:192.12.2.2",
            &[
                r#"spec.clusterIPs[0]: non-standard IP address "::ffff:192.12.2.2" will be considered invalid in a future Kubernetes release: use "192.12.2.2""#,
            ],
        ),
        (
            "IPv6 non-canonical format",
            "spec.loadBalancerIP",
            "2001:db8:0:0::2",
            &[
                r#"spec.loadBalancerIP: IPv6 address "2001:db8:0:0::2" should be in RFC 5952 canonical format ("2001:db8::2")"#,
            ],
        ),
    ];
    for (name, path, value, want) in rows {
        assert_eq!(get_warnings_for_ip(path, value), *want, "{name}");
    }
}

// TestGetWarningsForCIDR (v0.35.0 wording).
#[test]
fn get_warnings_for_cidr_table() {
    let p = "spec.loadBalancerSourceRanges[0]";
    let rows: &[(&str, &str, &[&str])] = &[
        ("IPv4 No failures", "192.12.2.0/24", &[]),
        ("IPv6 No failures", "2001:db8::/64", &[]),
        (
            "IPv4 with leading zeros",
            "192.012.2.0/24",
            &[
                r#"spec.loadBalancerSourceRanges[0]: non-standard CIDR value "192.012.2.0/24" will be considered invalid in a future Kubernetes release: use "192.12.2.0/24""#,
            ],
        ),
        (
            "leading zeros in prefix length",
            "192.12.2.0/024",
            &[
                r#"spec.loadBalancerSourceRanges[0]: non-standard CIDR value "192.12.2.0/024" will be considered invalid in a future Kubernetes release: use "192.12.2.0/24""#,
            ],
        ),
        (
            "IPv4-mapped IPv6",
            "::ffff:192.12.2.0/120",
            &[
                r#"spec.loadBalancerSourceRanges[0]: non-standard CIDR value "::ffff:192.12.2.0/120" will be considered invalid in a future Kubernetes release: use "192.12.2.0/24""#,
            ],
        ),
        (
            "bits after prefix length",
            "192.12.2.8/24",
            &[
                r#"spec.loadBalancerSourceRanges[0]: CIDR value "192.12.2.8/24" is ambiguous in this context (should be "192.12.2.0/24" or "192.12.2.8/32"?)"#,
            ],
        ),
        (
            "multiple problems",
            "192.012.2.8/24",
            &[
                r#"spec.loadBalancerSourceRanges[0]: CIDR value "192.012.2.8/24" is ambiguous in this context (should be "192.12.2.0/24" or "192.12.2.8/32"?)"#,
                r#"spec.loadBalancerSourceRanges[0]: non-standard CIDR value "192.012.2.8/24" will be considered invalid in a future Kubernetes release: use "192.12.2.0/24""#,
            ],
        ),
        (
            "IPv6 non-canonical format",
            "2001:db8:0:0::/64",
            &[
                r#"spec.loadBalancerSourceRanges[0]: IPv6 CIDR value "2001:db8:0:0::/64" should be in RFC 5952 canonical format ("2001:db8::/64")"#,
            ],
        ),
    ];
    for (name, value, want) in rows {
        assert_eq!(get_warnings_for_cidr(p, value), *want, "{name}");
    }
}

// TestIsValidInterfaceAddress.
#[test]
fn is_valid_interface_address_table() {
    const BAD: &str = "must be a valid address in CIDR form";
    let rows: &[(&str, &str, &str)] = &[
        ("ipv4", "1.2.3.4/24", ""),
        ("ipv4, single IP", "1.1.1.1/32", ""),
        ("ipv6", "2001:4860:4860::1/48", ""),
        ("ipv6, single IP", "::1/128", ""),
        ("empty string", "", BAD),
        ("junk", "aaaaaaa", BAD),
        ("IP address", "1.2.3.4", BAD),
        ("partial URL", "192.168.0.1/healthz", BAD),
        ("partial URL 2", "192.168.0.1/0/99", BAD),
        ("negative prefix length", "192.168.0.0/-16", BAD),
        ("prefix length with sign", "192.168.0.0/+16", BAD),
        (
            "ipv6 non-canonical",
            "2001:0:0:0::0BCD/64",
            r#"must be in canonical form ("2001::bcd/64")"#,
        ),
        (
            "ipv4 with leading 0s",
            "1.1.01.002/24",
            r#"must be in canonical form ("1.1.1.2/24")"#,
        ),
        (
            "ipv4-in-ipv6 with ipv4-sized prefix",
            "::ffff:1.1.1.1/24",
            r#"must be in canonical form ("1.1.1.1/24")"#,
        ),
        (
            "ipv4-in-ipv6 with ipv6-sized prefix",
            "::ffff:1.1.1.1/120",
            r#"must be in canonical form ("1.1.1.1/24")"#,
        ),
        (
            "prefix length with leading 0s",
            "192.168.0.5/016",
            r#"must be in canonical form ("192.168.0.5/16")"#,
        ),
    ];
    for (name, input, err) in rows {
        let errs = is_valid_interface_address("", input);
        if err.is_empty() {
            assert!(errs.is_empty(), "{name}: {errs:?}");
        } else {
            assert_eq!(errs.len(), 1, "{name}: {errs:?}");
            assert!(errs[0].detail.contains(err), "{name}: {:?}", errs[0].detail);
        }
    }
}
