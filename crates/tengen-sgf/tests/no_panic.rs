//! A stable stand-in for the fuzz targets: thousands of mutated real files
//! (truncations, byte flips, inserted brackets and escapes, charset labels,
//! random bytes) read in both modes. Nothing may panic, and whatever lenient
//! mode reads must write and read back (strictly) as the same collection.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

mod common;

use common::{corpus_root, sgf_files};
use tengen_sgf::{ParseOptions, parse, parse_str, write};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

const SEEDS: &[&[u8]] = &[
    b"(;GM[1]FF[4]SZ[19]C[a \\] b\\\\]AB[aa:cc];B[pd];W[dd](;B[pq])(;B[dp]C[x\\\ny]))",
    b";GM[1]AP[a:1]AP[foxwq]KM[375];B[aa](;W[bb])(;W[cc]))",
    b"(;CoPyright[x]GaMe[1]US[Matsuyama[3d]];B[aa];C[a]b])",
    b"junk (;CA[Shift_JIS]PB[\x95\x5C\x83\x5C]C[\x94\x5C]) trailing",
    b"((;a[])(;B[]))()(;(;B[aa](;W[bb](;B[cc]",
    b"\xEF\xBB\xBF(;CA[UTF-8]C[\xe7\xac\xac?\x88])",
    b"\xFF\xFE(\x00;\x00C\x00[\x00x\x00]\x00)\x00",
];

const INSERTS: &[&[u8]] = &[
    b"(",
    b")",
    b"[",
    b"]",
    b";",
    b"\\",
    b":",
    b"\\]",
    b"(;",
    b")(",
    b"\n",
    b"\r\n",
    b"CA[GB2312]",
    b"CA[UTF-16]",
    b"CA[foo]",
    b"CA[Big5]",
    b"B[",
    b"xX[",
    b"\x00",
    b"\x80",
    b"\xFF",
    b"\xE6",
    b"\xFE\xFF",
];

fn corpus_sample() -> Vec<Vec<u8>> {
    let Some(root) = corpus_root() else {
        eprintln!("no corpus: mutating the built-in seeds only");
        return Vec::new();
    };
    let files = sgf_files(&root);
    // Every parser test file, and one in 100 of the rest.
    files
        .iter()
        .enumerate()
        .filter(|(i, p)| i % 100 == 0 || p.to_string_lossy().contains("sgf_parser_tests"))
        .map(|(_, p)| std::fs::read(p).unwrap())
        .filter(|d| d.len() < 200_000)
        .collect()
}

fn mutate(rng: &mut Rng, src: &[u8]) -> Vec<u8> {
    let mut v = src.to_vec();
    for _ in 0..1 + rng.below(4) {
        let len = v.len();
        match rng.below(8) {
            0 => v.truncate(rng.below(len + 1)),
            1 => {
                if len > 0 {
                    let i = rng.below(len);
                    v[i] ^= 1 << rng.below(8);
                }
            }
            2 | 3 => {
                let ins = INSERTS[rng.below(INSERTS.len())];
                let at = rng.below(len + 1);
                v.splice(at..at, ins.iter().copied());
            }
            4 => {
                let a = rng.below(len + 1);
                let b = (a + rng.below(64)).min(len);
                v.drain(a..b);
            }
            5 => {
                let a = rng.below(len + 1);
                let b = (a + rng.below(64)).min(len);
                let chunk = v[a..b].to_vec();
                let at = rng.below(len + 1);
                v.splice(at..at, chunk);
            }
            6 => {
                let at = rng.below(len + 1);
                let n = rng.below(16);
                let bytes: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
                v.splice(at..at, bytes);
            }
            _ => {
                if len > 0 {
                    let i = rng.below(len);
                    v[i] = b"()[];\\:"[rng.below(7)];
                }
            }
        }
    }
    v
}

fn check(input: &[u8]) {
    let _ = parse(input, &ParseOptions::strict());
    if let Ok(p) = parse(input, &ParseOptions::lenient()) {
        let text = write(&p.collection);
        if p.collection.is_empty() {
            assert_eq!(text, "");
            return;
        }
        let again = parse_str(&text, &ParseOptions::strict())
            .unwrap_or_else(|e| panic!("{e}\ninput: {input:?}\nwritten: {text}"));
        assert!(
            again.collection == p.collection,
            "input: {input:?}\nwritten: {text}"
        );
    }
    // Already decoded text goes through the same parser.
    let _ = parse_str(&String::from_utf8_lossy(input), &ParseOptions::lenient());
}

#[test]
fn mutated_inputs_never_panic_and_round_trip() {
    let mut rng = Rng(0x5eed_1234_abcd_ef01);
    let mut sources: Vec<Vec<u8>> = SEEDS.iter().map(|s| s.to_vec()).collect();
    sources.extend(corpus_sample());
    let mut count = 0;
    for round in 0..40 {
        for src in &sources {
            // Big files get fewer rounds, so the test stays fast.
            if src.len() > 20_000 && round % 8 != 0 {
                continue;
            }
            check(&mutate(&mut rng, src));
            count += 1;
        }
    }
    // Random bytes, biased to SGF syntax.
    for _ in 0..2000 {
        let n = rng.below(200);
        let input: Vec<u8> = (0..n)
            .map(|_| match rng.below(3) {
                0 => b"()[];\\:ABCWabc \n"[rng.below(16)],
                1 => rng.next() as u8,
                _ => b'a' + rng.below(26) as u8,
            })
            .collect();
        check(&input);
        count += 1;
    }
    assert!(count >= 4000, "{count} inputs");
}
