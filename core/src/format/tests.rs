use super::*;

fn check(f: Format, valid: &[&str], invalid: &[&str]) {
    for s in valid {
        assert!(f.matches(s), "{f} should accept {s:?}");
    }
    for s in invalid {
        assert!(!f.matches(s), "{f} should reject {s:?}");
    }
}

#[test]
fn names_round_trip() {
    for f in Format::ALL {
        assert_eq!(Format::from_name(f.as_str()), Some(f));
        assert_eq!(f.to_string(), f.as_str());
        assert_eq!(f.as_str().parse::<Format>(), Ok(f));
        assert!(!f.describe().is_empty());
    }
    assert_eq!(Format::from_name("Date"), None);
    assert_eq!(
        "idn-email".parse::<Format>(),
        Err(UnknownFormat("idn-email".into()))
    );
    let mut sorted = Format::ALL;
    sorted.sort();
    assert_eq!(sorted, Format::ALL);
}

#[test]
#[rustfmt::skip]
fn date() {
    let valid = [
        "1963-06-19", "2020-01-31", "2021-02-28", "2020-02-29", "2000-02-29", "2020-04-30",
        "0000-01-01", "9999-12-31",
    ];
    let invalid = [
        "", "2020-01-32", "2021-02-29", "1900-02-29", "2020-04-31", "2020-13-01", "2020-00-10",
        "2020-01-00", "06/19/1963", "2013-350", "1998-1-20", "1998-01-1", "1963-06-1\u{09ea}",
        "20230328", "2023-W01", "2020-01-01T00:00:00Z", " 2020-01-01",
    ];
    check(Format::Date, &valid, &invalid);
}

#[test]
#[rustfmt::skip]
fn time() {
    let valid = [
        "08:30:06Z", "08:30:06z", "23:59:60Z", "01:29:60+01:30", "23:29:60+23:30",
        "15:59:60-08:00", "00:29:60-23:30", "08:30:06.283185Z", "08:30:06+00:20",
        "08:30:06-08:00", "00:00:00.5+23:59",
    ];
    let invalid = [
        "", "12:00:00", "008:030:006Z", "8:3:6Z", "8:0030:6Z", "22:59:60Z", "23:58:60Z",
        "23:59:60+00:30", "23:59:60-01:00", "24:00:00Z", "12:60:00Z", "12:00:61Z",
        "08:30:06+24:00", "08:30:06+00:60", "08:30:06#01:00", "08:30:06+1:00", "08:30:06.Z",
        "01:02:03Z+00:30", "ab:cd:efZ", "1\u{09e8}:00:00Z", "08:30:06 Z",
        "2020-01-01T08:30:06Z",
    ];
    check(Format::Time, &valid, &invalid);
}

#[test]
#[rustfmt::skip]
fn date_time() {
    let valid = [
        "1963-06-19T08:30:06.283185Z", "1963-06-19T08:30:06Z", "1937-01-01T12:00:27.87+00:20",
        "1990-12-31T15:59:50.123-08:00", "1998-12-31T23:59:60Z",
        "1998-12-31T15:59:60.123-08:00", "1963-06-19t08:30:06.283185z", "2026-11-22T14:30:00Z",
    ];
    let invalid = [
        "", "1998-12-31T23:58:60Z", "1998-12-31T22:59:60Z", "1990-02-31T15:59:59.123-08:00",
        "1990-12-31T15:59:59-24:00", "06/19/1963 08:30:06 PST", "2013-350T01:01:01",
        "1963-06-19T08:30:06", "1963-06-19 08:30:06Z", "1963-06-1\u{09ea}T00:00:00Z",
        "1963-06-11T0\u{09ea}:00:00Z", "1963-06-19T",
    ];
    check(Format::DateTime, &valid, &invalid);
}

#[test]
#[rustfmt::skip]
fn email() {
    let valid = [
        "joe.bloggs@example.com", "te~st@example.com", "~test@example.com", "test~@example.com",
        "\"joe bloggs\"@example.com", "\"joe..bloggs\"@example.com", "\"a@b\"@example.com",
        "joe.bloggs@[127.0.0.1]", "joe.bloggs@[IPv6:::1]", "a!#$%&'*+-/=?^_`{|}~@x.y",
        "user@localhost", "te.s.t@example.com", "test@255.255.255.255", "\"\"@iana.org",
        "\" \"@iana.org", "\"\\a\"@iana.org", "\"\\\"\"@iana.org", "\"\\\\\"@iana.org",
        "a@[ipv6:::1]", "test@c--n.com", "test@123.com", "test@io",
    ];
    let invalid = [
        "", "2962", "@x.com", "a@", "a b@c.com", "a..b@c.com", ".test@example.com",
        "test.@example.com", "a@b@c.com", "joe.bloggs@invalid=domain.com",
        "joe.bloggs@[127.0.0.300]", "joe.bloggs@[IPv6:1::2::3]", "joe.bloggs@[::1]",
        "\"unterminated@example.com", "\"a\"b@example.com", "j\u{00f6}e@example.com",
        "a@-example.com", "a@\u{e9}.org", "a\u{ff20}iana.org", "\"test\\\u{a9}\"@iana.org",
        "test@iana.org\n", "a@iana.org ", " a@iana.org", "a\tb@iana.org", "\u{7f}@iana.org",
        "test\"@iana.org", "test\\@test@iana.org", "[1.2.3.4]@iana.org", "test@iana.org.",
        "test@iana..com", "test@[1.2.3.4", "a@[]", "a@[1.2.3]", "a@[1.2.3.4.5]",
        "test@[RFC-5322-domain-literal]", "test@a[255.255.255.255]", "a,b@iana.org",
        "a;b@iana.org", "a:b@iana.org", "test(comment)@iana.org", "a@b(c).org",
        "user1@oceania.org, user2@oceania.org", "\"Winston Smith\" <w.s@recdep.minitrue>",
    ];
    check(Format::Email, &valid, &invalid);
    let long_local = format!("{}@example.com", "a".repeat(65));
    assert!(!Format::Email.matches(&long_local));
    assert!(Format::Email.matches(&long_local[1..]));
}

#[test]
#[rustfmt::skip]
fn uri() {
    let valid = [
        "http://example.com/a?b#c", "http://foo.bar/?baz=qux#quux",
        "http://foo.com/blah_(wikipedia)_blah#cite-1",
        "http://foo.bar/?q=Test%20URL-encoded%20stuff", "http://xn--nw2a.xn--j6w193g/",
        "http://-.~_!$&'()*+,;=:%40:80%2f::::::@example.com", "http://223.255.255.254",
        "ftp://ftp.is.co.za/rfc/rfc1808.txt", "ldap://[2001:db8::7]/c=GB?objectClass?one",
        "http://[::1]:8080/x", "http://[v1.fe80::a+en1]/", "mailto:John.Doe@example.com",
        "news:comp.infosystems.www.servers.unix", "tel:+1-816-555-1212",
        "urn:oasis:names:specification:docbook:dtd:xml:4.1.2", "file:///etc/hosts", "a:",
        "http://a.com:", "http://:80", "http://user@", "http://999.999.999.999/",
    ];
    let invalid = [
        "", "//example.com", "//foo.bar/?baz=qux#quux", "example.com", "abc",
        "\\\\WINDOWS\\fileshare", "http:// shouldfail.com", ":// should fail", "bar,baz:foo",
        "1http://x", "https://[@example.org/test.txt", "https://example.org/foobar\\.txt",
        "https://example.org/foobar<>.txt", "https://example.org/foobar{}.txt",
        "https://example.org/foobar^.txt", "https://example.org/foobar`.txt",
        "https://example.org/foobar|.txt", "https://example.org/\"x\"",
        "http://example.com/%zz", "http://example.com/%2", "http://example.com/a#b#c",
        "http://example.com:80a/", "http://ex\tample.com",
        "http://\u{0192}\u{00f8}\u{00f8}.com/", "http://example.com/[x]",
        "http://a.com:8:0", "http://a.com::", "ht_tp://example.com", "/abc",
    ];
    check(Format::Uri, &valid, &invalid);
}

#[test]
#[rustfmt::skip]
fn uuid() {
    let valid = [
        "2EB8AA08-AA98-11EA-B4AA-73B441D16380", "2eb8aa08-aa98-11ea-b4aa-73b441d16380",
        "2eb8aa08-AA98-11ea-B4Aa-73B441D16380", "00000000-0000-0000-0000-000000000000",
        "98d80576-482e-427f-8434-7f86890ab222", "99c17cbb-656f-564a-940f-1a4568f03487",
    ];
    let invalid = [
        "", "2eb8aa08-aa98-11ea-b4aa-73b441d1638", "2eb8aa08-aa98-11ea-73b441d16380",
        "2eb8-aa08-aa98-11ea-b4aa73b441d16380", "2eb8aa08aa9811eab4aa73b441d16380",
        "2eb8aa08-aa98-11ea-b4ga-73b441d16380", "{2eb8aa08-aa98-11ea-b4aa-73b441d16380}",
        "2eb8aa08-aa98-11ea-b4aa-73b441d163800",
    ];
    check(Format::Uuid, &valid, &invalid);
}

#[test]
#[rustfmt::skip]
fn ipv4() {
    let valid = [
        "192.168.0.1", "0.0.0.0", "255.255.255.255", "87.10.0.1", "1.2.3.4", "10.0.100.200",
    ];
    let invalid = [
        "", "127.0.0.0.1", "256.256.256.256", "127.0", "0x7f000001", "2130706433", "087.10.0.1",
        "01.2.3.4", "1\u{09e8}7.0.0.1", "192.168.1.0/24", "1.2.3.", " 1.2.3.4", "1..2.3",
    ];
    check(Format::Ipv4, &valid, &invalid);
}

#[test]
#[rustfmt::skip]
fn ipv6() {
    let valid = [
        "::1", "::", "::abef", "1:2:3:4:5:6:7:8", "1:d6::42", "::ffff:192.168.0.1",
        "1:2:3:4:5:6:7::", "fe80::202:b3ff:fe1e:8329",
        "2001:0DB8:85a3:0000:0000:8a2e:0370:7334",
        "1000:1000:1000:1000:1000:1000:255.255.255.255",
    ];
    let invalid = [
        "", "12345::", "::abcef", "1:1:1:1:1:1:1:1:1:1", "::laptop", "1:2:3:4:5:::8",
        "fe80::1%eth0", " ::1", "::1 ", "::ffff:192.168.0.256", "1:2:3:4:1.2.3",
        "::ffff:192.168.0.01", "1:2::192.16\u{09ea}.0.1", "127.0.0.1",
        "1::d6::42", "1:2:3:4:5:6:7:", "fe80::/64",
    ];
    check(Format::Ipv6, &valid, &invalid);
}

#[test]
#[rustfmt::skip]
fn hostname() {
    let max_label = format!("{}.com", "a".repeat(63));
    let long_label = format!("{}.com", "a".repeat(64));
    let max_name = ["a", "b", "c"].map(|c| c.repeat(63)).join(".") + "." + &"d".repeat(61);
    let too_long = format!("{max_name}e");
    let valid = [
        "www.example.com", "xn--4gbwdl.xn--wgbh1c", "hostname", "host-name", "h0stn4me",
        "1host", "example.com.", max_label.as_str(), max_name.as_str(),
    ];
    let with_dot = format!("{max_name}.");
    assert!(Format::Hostname.matches(&with_dot));
    let invalid = [
        "", ".", "-a-host-name-that-starts-with--", "not_a_valid_host_name", "hostname-",
        "_hostname", "host_name", "a..b", ".example.com", "example.com..", "ex ample.com",
        "b\u{00fc}cher.de", long_label.as_str(), too_long.as_str(),
    ];
    check(Format::Hostname, &valid, &invalid);
}

#[test]
#[rustfmt::skip]
fn never_panics_on_odd_input() {
    let odd = [
        "", "\"", "\"@", "@", "[", "]", ":", "%", "%%", "T", "\u{1f600}", "a:%", "a://[",
        "a://[]", "a://[v]", "a://[v1.]", "x@[", "x@[]", "\u{00e9}@\u{00e9}", "99:99:99Z",
    ];
    for f in Format::ALL {
        for s in odd {
            let _ = f.matches(s);
        }
    }
}

/// The hostname and dot-atom rules as first written (splitting on dots): the one-pass
/// scanners must answer as they do on any text.
mod split_rules {
    pub fn is_hostname(s: &str) -> bool {
        let name = s.strip_suffix('.').unwrap_or(s);
        !name.is_empty()
            && name.len() <= 253
            && name.split('.').all(|label| {
                let b = label.as_bytes();
                (1..=63).contains(&b.len())
                    && b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'-')
                    && b[0] != b'-'
                    && b[b.len() - 1] != b'-'
            })
    }

    pub fn is_dot_atom(local: &str) -> bool {
        local
            .split('.')
            .all(|atom| !atom.is_empty() && atom.bytes().all(super::is_atext))
    }
}

proptest::proptest! {
    #[test]
    fn one_pass_hostnames_and_dot_atoms_answer_as_split_rules(
        text in "[a-c0-9.\\-@_é]{0,12}|[a-z]{60,70}(\\.[a-z]{1,3})?",
    ) {
        proptest::prop_assert_eq!(is_hostname(&text), split_rules::is_hostname(&text));
        proptest::prop_assert_eq!(is_dot_atom(text.as_bytes()), split_rules::is_dot_atom(&text));
    }
}
