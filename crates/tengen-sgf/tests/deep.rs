//! Depth never touches the call stack: huge main lines and nestings parse,
//! write, walk, compare, clone and drop on a 2 MiB thread (tokio's default
//! worker stack), where a recursive implementation overflows.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

use tengen_sgf::{Collection, GameTree, Node, ParseOptions, parse, parse_str, write};

const N: usize = 100_000;

fn on_small_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap();
}

fn point(i: usize) -> String {
    let a = char::from(b'a' + (i % 19) as u8);
    let b = char::from(b'a' + (i / 19 % 19) as u8);
    format!("{a}{b}")
}

fn check(src: String, opts: ParseOptions, nodes: usize) {
    let p = parse(src.as_bytes(), &opts).unwrap();
    let tree = &p.collection.trees[0];
    assert_eq!(tree.len(), nodes);
    assert_eq!(tree.nodes().count(), nodes);
    let text = write(&p.collection);
    let again = parse_str(&text, &ParseOptions::strict()).unwrap();
    assert_eq!(again.collection, p.collection);
    let copy = p.collection.clone();
    assert_eq!(copy, again.collection);
    drop(copy);
    drop(again);
    drop(p);
}

#[test]
fn long_main_line() {
    on_small_stack(|| {
        let mut src = String::from("(;GM[1]FF[4]SZ[19]");
        for i in 0..N {
            src.push_str(if i % 2 == 0 { ";B[" } else { ";W[" });
            src.push_str(&point(i));
            src.push(']');
        }
        src.push(')');
        let p = parse(src.as_bytes(), &ParseOptions::strict()).unwrap();
        assert_eq!(p.collection.trees[0].main_line().count(), N + 1);
        drop(p);
        check(src, ParseOptions::strict(), N + 1);
    });
}

#[test]
fn ogs_style_nesting() {
    on_small_stack(|| {
        let mut src = String::from("(;GM[1]FF[4]SZ[19]");
        for i in 0..N {
            src.push_str(if i % 2 == 0 { "(;B[" } else { "(;W[" });
            src.push_str(&point(i));
            src.push(']');
        }
        src.push_str(&")".repeat(N + 1));
        let p = parse(src.as_bytes(), &ParseOptions::strict()).unwrap();
        let tree = &p.collection.trees[0];
        assert_eq!(tree.main_line().count(), N + 1);
        // A single line of moves once written.
        let text = write(&p.collection);
        assert!(!text.contains("(;B"));
        drop(p);
        check(src, ParseOptions::strict(), N + 1);
    });
}

#[test]
fn unclosed_nesting_is_closed() {
    on_small_stack(|| {
        let mut src = String::from("(;GM[1]");
        for i in 0..N {
            src.push_str("(;B[");
            src.push_str(&point(i));
            src.push(']');
        }
        assert!(parse(src.as_bytes(), &ParseOptions::strict()).is_err());
        check(src, ParseOptions::lenient(), N + 1);
    });
}

#[test]
fn deep_branching() {
    // Every node has a leaf variation and a continuation: the written text
    // nests parentheses N deep.
    on_small_stack(|| {
        let mut src = String::from("(;GM[1]");
        for i in 0..N / 2 {
            src.push_str("(;C[leaf])(;B[");
            src.push_str(&point(i));
            src.push(']');
        }
        src.push_str(&")".repeat(N / 2 + 1));
        check(src, ParseOptions::strict(), N + 1);
    });
}

#[test]
fn built_deep_tree() {
    on_small_stack(|| {
        let mut tree = GameTree::new();
        let mut cur = tree.root();
        for i in 0..N {
            let mut n = Node::new();
            n.push("B", [point(i)]);
            if i % 1000 == 0 {
                let mut side = Node::new();
                side.push("C", ["side"]);
                tree.add_child(cur, side);
            }
            cur = tree.add_child(cur, n);
        }
        let c = Collection { trees: vec![tree] };
        let text = write(&c);
        let p = parse_str(&text, &ParseOptions::strict()).unwrap();
        assert_eq!(p.collection, c);
        assert_eq!(p.collection.trees[0].len(), N + 1 + N / 1000);
        drop(p);
        drop(c);
    });
}
