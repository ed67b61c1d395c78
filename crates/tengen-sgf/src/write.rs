//! The SGF writer.
//!
//! Values are written raw, exactly as read (or as escaped when built from
//! decoded text), properties in stored order, with no recursion. Layout:
//! each game tree starts on a new line, the root node ends its line, each
//! variation `(` starts a line, and a line is broken before a node, a
//! property or a value once it is [`LINE_WIDTH`] bytes long (whitespace is
//! allowed there, so this changes nothing that a reader sees). A node with
//! one child continues the sequence, so an OGS file that wraps every move in
//! its own variation comes out as a plain main line.

use std::fmt::{self, Write};

use crate::tree::{Collection, GameTree, NodeId};

/// A line is broken at the next opportunity once it is this long.
pub const LINE_WIDTH: usize = 72;

struct Out<'a, W: Write> {
    out: &'a mut W,
    col: usize,
}

impl<W: Write> Out<'_, W> {
    fn put(&mut self, s: &str) -> fmt::Result {
        self.out.write_str(s)?;
        match s.rfind('\n') {
            Some(i) => self.col = s.len() - i - 1,
            None => self.col += s.len(),
        }
        Ok(())
    }

    fn newline(&mut self) -> fmt::Result {
        if self.col > 0 {
            self.out.write_char('\n')?;
            self.col = 0;
        }
        Ok(())
    }

    fn wrap(&mut self) -> fmt::Result {
        if self.col >= LINE_WIDTH {
            self.newline()?;
        }
        Ok(())
    }
}

enum Step {
    Node(NodeId),
    Open,
    Close,
}

fn write_node<W: Write>(o: &mut Out<'_, W>, tree: &GameTree, id: NodeId) -> fmt::Result {
    o.wrap()?;
    o.put(";")?;
    for prop in tree.node(id).properties() {
        o.wrap()?;
        o.put(prop.ident())?;
        for (i, v) in prop.values().iter().enumerate() {
            if i > 0 {
                o.wrap()?;
            }
            o.put("[")?;
            o.put(v.raw())?;
            o.put("]")?;
        }
    }
    Ok(())
}

/// Writes one game tree, `(` to `)`, starting on a new line.
pub fn write_tree_to<W: Write>(tree: &GameTree, out: &mut W) -> fmt::Result {
    let mut o = Out { out, col: 0 };
    write_tree_inner(&mut o, tree)
}

fn write_tree_inner<W: Write>(o: &mut Out<'_, W>, tree: &GameTree) -> fmt::Result {
    o.newline()?;
    o.put("(")?;
    let mut stack = vec![Step::Node(tree.root())];
    while let Some(step) = stack.pop() {
        match step {
            Step::Node(id) => {
                write_node(o, tree, id)?;
                let kids = tree.children(id);
                if id == tree.root() && !kids.is_empty() {
                    o.newline()?;
                }
                match kids {
                    [] => {}
                    [only] => stack.push(Step::Node(*only)),
                    _ => {
                        for &k in kids.iter().rev() {
                            stack.push(Step::Close);
                            stack.push(Step::Node(k));
                            stack.push(Step::Open);
                        }
                    }
                }
            }
            Step::Open => {
                o.newline()?;
                o.put("(")?;
            }
            Step::Close => {
                o.wrap()?;
                o.put(")")?;
            }
        }
    }
    o.put(")")?;
    o.newline()
}

/// Writes a collection into any [`fmt::Write`].
pub fn write_to<W: Write>(collection: &Collection, out: &mut W) -> fmt::Result {
    let mut o = Out { out, col: 0 };
    for tree in &collection.trees {
        write_tree_inner(&mut o, tree)?;
    }
    Ok(())
}

/// Writes a collection as SGF text, each game tree ending with a newline.
///
/// The text is Unicode; to save it as UTF-8 bytes whatever the file was read
/// from, call [`Collection::set_charset_utf8`] first so that `CA` says so.
pub fn write(collection: &Collection) -> String {
    let mut s = String::new();
    // Writing into a String cannot fail.
    let _ = write_to(collection, &mut s);
    s
}

/// Writes one game tree as SGF text.
pub fn write_tree(tree: &GameTree) -> String {
    let mut s = String::new();
    let _ = write_tree_to(tree, &mut s);
    s
}

/// Writes a collection into an [`std::io::Write`] as UTF-8.
pub fn write_io<W: std::io::Write>(collection: &Collection, out: &mut W) -> std::io::Result<()> {
    out.write_all(write(collection).as_bytes())
}
