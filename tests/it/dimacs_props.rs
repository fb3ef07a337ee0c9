//! Properties of the DIMACS reader and writer: write∘parse is the identity, random bytes
//! never make the reader panic, and compressed input reads the same as plain.

use std::io::Write;

use bench::cnf::Cnf;
use bench::cnf::dimacs::{ParseOptions, parse, read_path, write_cnf};
use proptest::prelude::*;

fn cnf_strategy() -> impl Strategy<Value = Cnf> {
    (1u32..50).prop_flat_map(|vars| {
        let lit = (1..=vars as i32, any::<bool>()).prop_map(|(v, neg)| if neg { -v } else { v });
        prop::collection::vec(prop::collection::vec(lit, 0..8), 0..40)
            .prop_map(move |clauses| Cnf::from_dimacs_clauses(vars, &clauses))
    })
}

proptest! {
    #[test]
    fn write_then_parse_is_identity(cnf in cnf_strategy(), comment in "[a-z=0-9 ]{0,30}") {
        let bytes = write_cnf(Vec::new(), &cnf, &[comment]).unwrap();
        let back = parse(&bytes[..], "p.cnf", ParseOptions::default()).unwrap();
        prop_assert_eq!(back.cnf, cnf);
    }

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        let _ = parse(&bytes[..], "r.cnf", ParseOptions::default());
        let _ = parse(&bytes[..], "r.cnf", ParseOptions { strict: false });
    }

    #[test]
    fn dimacs_like_text_never_panics(body in "(p cnf [0-9]{1,12} [0-9]{1,12}\n)?([-0-9 c%p\n\r\t]{0,200})") {
        let _ = parse(body.as_bytes(), "r.cnf", ParseOptions::default());
    }
}

#[test]
fn gzip_and_xz_read_like_plain() {
    let cnf = Cnf::from_dimacs_clauses(5, &[vec![1, -2, 3], vec![-5], vec![4, 2]]);
    let plain = write_cnf(Vec::new(), &cnf, &[]).unwrap();
    let dir = tempfile::tempdir().unwrap();

    let gz = dir.path().join("f.cnf.gz");
    let mut enc = flate2::write::GzEncoder::new(
        std::fs::File::create(&gz).unwrap(),
        flate2::Compression::default(),
    );
    enc.write_all(&plain).unwrap();
    enc.finish().unwrap();

    let xz = dir.path().join("f.cnf.xz");
    let mut enc = xz2::write::XzEncoder::new(std::fs::File::create(&xz).unwrap(), 6);
    enc.write_all(&plain).unwrap();
    enc.finish().unwrap();

    // Content decides, not the name: a gzip file called .cnf still reads.
    let misnamed = dir.path().join("g.cnf");
    std::fs::copy(&gz, &misnamed).unwrap();

    for path in [gz, xz, misnamed] {
        assert_eq!(
            read_path(&path, ParseOptions::default()).unwrap().cnf,
            cnf,
            "{}",
            path.display()
        );
    }
}
