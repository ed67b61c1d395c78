//! The SGF reader: one pass over the decoded text with an explicit stack,
//! building each game tree's arena as it goes. No recursion.

use std::collections::HashMap;

use crate::coverage::Skipped;
use crate::error::{Issue, LineCursor, Location, ParseError, Span, Warning};
use crate::small::SmallStr;
use crate::tree::{GameTree, Link, Node, Property, Sp, Value, Values};

/// At most this many warnings are kept; the rest are counted in a last
/// [`Issue::TooManyWarnings`] warning, so that a hostile file cannot make the
/// warning list grow with its size.
pub const MAX_WARNINGS: usize = 1000;

/// What a parse gives: the trees, the warnings, the bytes skipped.
pub(crate) type Read = (Vec<GameTree>, Vec<Warning>, Skipped);

const NONE: u32 = u32::MAX;

/// Errors travel boxed inside the parser: a `Result` of one pointer is
/// returned in registers, where one of a whole `ParseError` goes through
/// memory on every `?` of the hot path.
type PResult<T> = Result<T, Box<ParseError>>;

/// Spare room a finished tree's arena may keep (about 72 bytes a node)
/// rather than be copied into an exact fit.
const SLACK_NODES: usize = 1024;

/// Above this many properties in one node, duplicates are found by a hash
/// map rather than a scan.
const LINEAR_PROPS: usize = 64;

fn is_ws(c: u8) -> bool {
    c.is_ascii_whitespace() || c == 0x0B
}

/// The first byte at or after `i` that is not whitespace.
#[inline(always)]
fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while b.get(i).is_some_and(|&c| is_ws(c)) {
        i += 1;
    }
    i
}

/// Where the parts of a one-property node are, and where the text after
/// it resumes.
struct Simple {
    ident: usize,
    open: usize,
    close: usize,
    next: usize,
}

/// The identifier and value of a common node in `text`, as small strings,
/// built when called (inside the push, see `Parser::push_node`).
#[inline(always)]
fn simple_strings(text: &str, simple: &Simple) -> impl FnOnce() -> (SmallStr, SmallStr) {
    let (ident, open, close) = (simple.ident, simple.open, simple.close);
    move || {
        (
            SmallStr::from_text(text, ident, open),
            SmallStr::from_text(text, open + 1, close),
        )
    }
}

/// Reads the common node at `i` (just after its `;`) without the general
/// machinery: one property in upper case with one value, then `;`, `(`,
/// `)` or the end. `None` for anything else, which the general reader
/// then handles with every check and repair.
#[inline(always)]
fn scan_simple(b: &[u8], mut i: usize) -> Option<Simple> {
    while b.get(i).is_some_and(|&c| is_ws(c)) {
        i += 1;
    }
    let ident = i;
    while b.get(i).is_some_and(u8::is_ascii_uppercase) {
        i += 1;
    }
    if i == ident || b.get(i) != Some(&b'[') {
        return None;
    }
    let open = i;
    i += 1;
    loop {
        match *b.get(i)? {
            b']' => break,
            b'\\' => i += 2,
            _ => i += 1,
        }
    }
    let close = i;
    i += 1;
    while b.get(i).is_some_and(|&c| is_ws(c)) {
        i += 1;
    }
    match b.get(i) {
        Some(b';' | b'(' | b')') | None => Some(Simple {
            ident,
            open,
            close,
            next: i,
        }),
        Some(_) => None,
    }
}

/// An open `(`: the node the variation hangs from and the number of nodes
/// created before it (to spot `()`).
#[derive(Clone, Copy)]
struct Open {
    node: u32,
    created: u32,
}

pub(crate) struct Parser<'a> {
    text: &'a str,
    b: &'a [u8],
    pos: usize,
    lenient: bool,
    max_nodes: usize,
    created: usize,
    warnings: Vec<Warning>,
    suppressed: usize,
    /// Bytes of text skipped or dropped as not SGF (lenient mode).
    skipped: Skipped,
    cursor: LineCursor,
    trees: Vec<GameTree>,
    // The tree being built.
    nodes: Vec<Node>,
    links: Vec<Link>,
    stack: Vec<Open>,
    cur: u32,
    after_variation: bool,
    // The node being built.
    props: Vec<Property>,
    index: HashMap<Vec<u8>, usize>,
}

impl<'a> Parser<'a> {
    pub(crate) fn new(text: &'a str, lenient: bool, max_nodes: usize) -> Parser<'a> {
        Parser {
            text,
            b: text.as_bytes(),
            pos: 0,
            lenient,
            max_nodes: max_nodes.min(NONE as usize - 1),
            created: 0,
            warnings: Vec::new(),
            suppressed: 0,
            skipped: Skipped::default(),
            cursor: LineCursor::default(),
            trees: Vec::new(),
            nodes: Vec::new(),
            links: Vec::new(),
            stack: Vec::new(),
            cur: NONE,
            after_variation: false,
            props: Vec::with_capacity(32),
            index: HashMap::new(),
        }
    }

    pub(crate) fn location(&mut self, offset: usize) -> Location {
        self.cursor.locate(self.b, offset)
    }

    /// Records a warning (both modes: charset notes use this too).
    pub(crate) fn warn(&mut self, span: Span, issue: Issue) {
        if self.warnings.len() >= MAX_WARNINGS {
            self.suppressed += 1;
            return;
        }
        let at = self.location(span.start);
        self.warnings.push(Warning::new(span, issue, at));
    }

    /// A deviation from FF\[4\]: an error in strict mode, a warning in lenient.
    fn issue(&mut self, start: usize, end: usize, issue: Issue) -> PResult<()> {
        let span = Span::new(start, end.max(start));
        if !self.lenient {
            return Err(Box::new(ParseError::Syntax {
                at: self.location(start),
                span,
                issue,
            }));
        }
        match issue {
            Issue::JunkOutsideTree { .. } | Issue::UnmatchedClose => {
                self.skipped.outside += span.len();
            }
            Issue::UnexpectedChar { .. }
            | Issue::NoUppercaseIdent { .. }
            | Issue::MissingValue { .. }
            | Issue::ValueWithoutProperty => self.skipped.inside += span.len(),
            _ => {}
        }
        self.warn(span, issue);
        Ok(())
    }

    /// Skips the characters at `self.pos` up to the first byte that `stop`
    /// accepts (or the end), as one [`Issue::UnexpectedChar`] naming the
    /// first of them and the `property` they follow.
    fn skip_junk(&mut self, stop: impl Fn(u8) -> bool, property: Option<String>) -> PResult<()> {
        let start = self.pos;
        let ch = self
            .slice(start, self.b.len())
            .chars()
            .next()
            .unwrap_or(' ');
        while self.b.get(self.pos).is_some_and(|&c| !stop(c)) {
            self.pos += 1;
        }
        self.issue(
            start,
            self.pos,
            Issue::UnexpectedChar {
                found: ch,
                property,
            },
        )
    }

    fn skip_ws(&mut self) {
        while self.b.get(self.pos).is_some_and(|&c| is_ws(c)) {
            self.pos += 1;
        }
    }

    fn slice(&self, start: usize, end: usize) -> &'a str {
        self.text.get(start..end).unwrap_or_default()
    }

    /// Reads the whole text. Returns the trees, the warnings and the bytes
    /// skipped as not SGF.
    pub(crate) fn run(self, start: usize) -> Result<Read, ParseError> {
        self.run_boxed(start).map_err(|e| *e)
    }

    fn run_boxed(mut self, start: usize) -> PResult<Read> {
        self.pos = start;
        self.skip_ws();
        let first = self.pos;
        if first >= self.b.len() {
            if !self.lenient {
                return Err(Box::new(ParseError::Empty));
            }
            self.warn(Span::new(first, first), Issue::EmptyInput);
            return Ok(self.done());
        }
        let mut any_tree = false;
        if self.b.get(first) == Some(&b';') {
            self.issue(first, first + 1, Issue::MissingOpenParen)?;
            any_tree = true;
            self.tree()?;
        }
        loop {
            self.skip_ws();
            let Some(&c) = self.b.get(self.pos) else {
                break;
            };
            if c == b'(' && self.tree_starts(self.pos + 1) {
                any_tree = true;
                self.pos += 1;
                self.tree()?;
                continue;
            }
            // Text outside any tree, up to the next '(' that starts one.
            let start = self.pos;
            let mut end = start + 1;
            while end < self.b.len()
                && !(self.b.get(end) == Some(&b'(') && self.tree_starts(end + 1))
            {
                end += 1;
            }
            let end = end.min(self.b.len());
            self.pos = end;
            let junk = self.b.get(start..end).unwrap_or_default();
            let trimmed_end = start + junk.iter().rposition(|&c| !is_ws(c)).map_or(0, |i| i + 1);
            let only_close = junk.iter().all(|&c| c == b')' || is_ws(c));
            if !any_tree && !only_close && end == self.b.len() {
                let at = self.location(start);
                return Err(Box::new(ParseError::NoGameTree { at }));
            }
            let issue = if only_close {
                Issue::UnmatchedClose
            } else {
                Issue::JunkOutsideTree {
                    bytes: trimmed_end - start,
                }
            };
            self.issue(start, trimmed_end, issue)?;
        }
        if !any_tree {
            let at = self.location(first);
            return Err(Box::new(ParseError::NoGameTree { at }));
        }
        Ok(self.done())
    }

    /// Whether a `(` before `at` opens a game tree: `;`, `(` or `)` follows, or
    /// a property (letters, then `[`), as in `(CA[UTF-8])` or Nihon Ki-in
    /// files. `(see above)` in free text before a game does not.
    fn tree_starts(&self, at: usize) -> bool {
        let mut i = at;
        while self.b.get(i).is_some_and(|&c| is_ws(c)) {
            i += 1;
        }
        match self.b.get(i) {
            Some(b';' | b'(' | b')') => true,
            Some(c) if c.is_ascii_alphabetic() => {
                while self.b.get(i).is_some_and(u8::is_ascii_alphabetic) {
                    i += 1;
                }
                while self.b.get(i).is_some_and(|&c| is_ws(c)) {
                    i += 1;
                }
                self.b.get(i) == Some(&b'[')
            }
            _ => false,
        }
    }

    fn done(mut self) -> Read {
        if self.suppressed > 0 {
            let end = self.b.len();
            let at = self.location(end);
            self.warnings.push(Warning::new(
                Span::new(end, end),
                Issue::TooManyWarnings {
                    suppressed: self.suppressed,
                },
                at,
            ));
        }
        (self.trees, self.warnings, self.skipped)
    }

    /// Moves the finished arena into the collection.
    fn finish_tree(&mut self) {
        if self.nodes.is_empty() {
            return;
        }
        // The arena was sized from the bytes left. A record's guess is
        // within a few hundred nodes of the truth, not worth a copy; a long
        // tree keeps at most a quarter more than it uses.
        let mut nodes = std::mem::take(&mut self.nodes);
        if nodes.capacity() > nodes.len() + nodes.len() / 4 + SLACK_NODES {
            nodes.shrink_to_fit();
        }
        let mut links = std::mem::take(&mut self.links);
        if links.capacity() > links.len() + links.len() / 4 + SLACK_NODES {
            links.shrink_to_fit();
        }
        let tree = GameTree::from_parsed(nodes, links);
        self.trees.push(tree);
    }

    /// One top-level game tree, its `(` already read (or missing).
    fn tree(&mut self) -> PResult<()> {
        self.stack.clear();
        self.stack.push(Open {
            node: NONE,
            created: self.created as u32,
        });
        self.cur = NONE;
        self.after_variation = false;
        loop {
            self.skip_ws();
            let Some(&c) = self.b.get(self.pos) else {
                let end = self.b.len();
                let open = self.stack.len();
                self.issue(end, end, Issue::Unclosed { open })?;
                self.finish_tree();
                return Ok(());
            };
            match c {
                b';' => {
                    let at = self.pos;
                    self.pos += 1;
                    self.node(at)?;
                    self.sequence();
                }
                b'(' => {
                    if self.cur == NONE {
                        self.issue(self.pos, self.pos + 1, Issue::VariationAtRoot)?;
                    }
                    self.stack.push(Open {
                        node: self.cur,
                        created: self.created as u32,
                    });
                    self.after_variation = false;
                    self.pos += 1;
                }
                b')' => {
                    let at = self.pos;
                    self.pos += 1;
                    let Some(open) = self.stack.pop() else {
                        // Not reachable: the tree ends when the stack empties.
                        self.finish_tree();
                        return Ok(());
                    };
                    if open.created == self.created as u32 {
                        self.issue(at, at + 1, Issue::EmptyGameTree)?;
                    }
                    if self.stack.is_empty() {
                        self.finish_tree();
                        return Ok(());
                    }
                    self.cur = open.node;
                    if self.cur != NONE {
                        self.after_variation = true;
                    }
                }
                c if c.is_ascii_alphabetic() => {
                    // Properties before any ';': read them as a node.
                    let start = self.pos;
                    let mut end = start;
                    while self.b.get(end).is_some_and(u8::is_ascii_alphabetic) {
                        end += 1;
                    }
                    let property = self.slice(start, end).to_owned();
                    self.issue(start, end, Issue::PropertyOutsideNode { property })?;
                    self.node(start)?;
                }
                _ => {
                    // Junk between nodes: skip up to the next syntax character.
                    self.skip_junk(
                        |c| matches!(c, b';' | b'(' | b')') || c.is_ascii_alphabetic(),
                        None,
                    )?;
                }
            }
        }
    }

    /// One node starting at `at` (its `;`, already read, or the first
    /// letter of properties written without `;`).
    fn node(&mut self, at: usize) -> PResult<()> {
        if self.after_variation {
            self.issue(at, at + 1, Issue::NodeAfterVariation)?;
            self.after_variation = false;
        }
        let parent = if self.cur == NONE {
            if !self.nodes.is_empty() {
                self.issue(at, at + 1, Issue::SeveralRoots)?;
                self.finish_tree();
            }
            NONE
        } else {
            self.cur
        };
        if self.created >= self.max_nodes {
            return Err(Box::new(ParseError::TooManyNodes {
                at: self.location(at),
                limit: self.max_nodes,
            }));
        }
        if let Some(simple) = scan_simple(self.b, self.pos) {
            self.pos = simple.next;
            let strings = simple_strings(self.text, &simple);
            self.push_simple(&simple, strings, at, parent);
            return Ok(());
        }
        let node = self.general_node(at)?;
        self.push_node(self.pos, || node);
        self.link(parent);
        Ok(())
    }

    /// Links the node just pushed under `parent` and makes it current.
    #[inline(always)]
    fn link(&mut self, parent: u32) {
        self.cur = (self.nodes.len() - 1) as u32;
        if let Some(p) = self.links.get_mut(parent as usize) {
            p.count_child();
        }
        self.links.push(Link::parsed(parent));
        self.created += 1;
    }

    /// The rest of a plain sequence of common nodes (`;B[pd];W[dd]...`) in
    /// one tight loop, without the checks `node` makes for a node after
    /// `(` or `)`: each such node's parent is the one before it.
    fn sequence(&mut self) {
        if self.cur == NONE || self.after_variation {
            return;
        }
        let b = self.b;
        let mut pos = self.pos;
        while b.get(pos) == Some(&b';') && self.created < self.max_nodes {
            // A move, `;B[pd]`: nearly every node of a record. Checked
            // byte by byte, its strings built without a scan.
            if let Some(&[_, c, b'[', x, y, b']']) = b.get(pos..pos + 6)
                && c.is_ascii_uppercase()
                && x.is_ascii_lowercase()
                && y.is_ascii_lowercase()
            {
                let next = skip_ws(b, pos + 6);
                if matches!(b.get(next), Some(b';' | b'(' | b')') | None) {
                    let simple = Simple {
                        ident: pos + 1,
                        open: pos + 2,
                        close: pos + 5,
                        next,
                    };
                    let strings = move || (SmallStr::upper(c), SmallStr::lower_pair(x, y));
                    self.push_simple(&simple, strings, pos, self.cur);
                    pos = next;
                    continue;
                }
            }
            let Some(simple) = scan_simple(b, pos + 1) else {
                break;
            };
            let strings = simple_strings(self.text, &simple);
            self.push_simple(&simple, strings, pos, self.cur);
            pos = simple.next;
        }
        self.pos = pos;
    }

    /// Makes room for the rest of this tree when the arena is full, guessed
    /// from the bytes left after `pos`: a move node takes 6 bytes or more
    /// (`;B[pd]`), so this is rarely short for long.
    #[cold]
    fn reserve_nodes(&mut self, pos: usize) {
        let guess = (self.b.len().saturating_sub(pos) / 6).clamp(16, 1 << 16);
        self.nodes.reserve(guess);
        self.links.reserve(guess);
    }

    /// Adds a node of one property with one value (`;B[pd]`) under
    /// `parent`, built in one expression once the arena has room so that
    /// it is written in place.
    #[inline(always)]
    fn push_simple(
        &mut self,
        simple: &Simple,
        strings: impl FnOnce() -> (SmallStr, SmallStr),
        at: usize,
        parent: u32,
    ) {
        let (id, open, close) = (simple.ident, simple.open, simple.close);
        self.push_node(at, move || {
            let (ident, value) = strings();
            Node::from_one(
                Some(Property::from_parts(
                    ident,
                    Values::One(Value::from_parts(value, Sp::new(open, close + 1))),
                    Sp::new(id, close + 1),
                )),
                Sp::new(at, close + 1),
            )
        });
        self.link(parent);
    }

    /// Adds the node `make` builds to the arena, making room first (guessed
    /// from the bytes after `pos`). The node is built only where the push
    /// is known not to reallocate, so that it is written straight into the
    /// arena rather than staged on the stack (a store-forwarding stall per
    /// node).
    #[inline(always)]
    fn push_node(&mut self, pos: usize, make: impl FnOnce() -> Node) {
        if self.nodes.len() == self.nodes.capacity() {
            self.reserve_nodes(pos);
        }
        if self.nodes.len() < self.nodes.capacity() {
            self.nodes.push(make());
        } else {
            // Not reached: `reserve_nodes` made room.
            self.nodes.push(make());
        }
    }

    /// Any node, with every check and repair.
    fn general_node(&mut self, at: usize) -> PResult<Node> {
        let end = self.properties()?;
        Ok(if self.props.len() <= 1 {
            // Keeps the scratch vector's capacity for the next node.
            Node::from_one(self.props.pop(), Sp::new(at, end.max(at + 1)))
        } else {
            Node::from_many(self.props.drain(..).collect(), Sp::new(at, end))
        })
    }

    /// Index of the property `ident` in the node being built.
    fn find_prop(&self, ident: &SmallStr) -> Option<usize> {
        if self.index.is_empty() {
            self.props.iter().position(|p| p.ident_small() == ident)
        } else {
            self.index.get(ident.as_bytes()).copied()
        }
    }

    /// Adds a property to the node being built; returns its index.
    fn add_prop(&mut self, p: Property) -> usize {
        self.props.push(p);
        let i = self.props.len() - 1;
        if !self.index.is_empty() {
            if let Some(p) = self.props.get(i) {
                self.index.insert(p.ident_bytes().to_vec(), i);
            }
        } else if self.props.len() > LINEAR_PROPS {
            for (j, p) in self.props.iter().enumerate() {
                self.index.insert(p.ident_bytes().to_vec(), j);
            }
        }
        i
    }

    /// The properties of a node, up to the `;`, `(` or `)` that ends it (not
    /// read). Returns the end of the last property.
    fn properties(&mut self) -> PResult<usize> {
        self.props.clear();
        self.index.clear();
        let mut end = self.pos;
        // The `]` of the last value read and its property, while nothing but
        // whitespace follows it: an unescaped `]` may extend that value.
        let mut last: Option<(usize, usize)> = None;
        loop {
            self.skip_ws();
            let Some(&c) = self.b.get(self.pos) else {
                return Ok(end);
            };
            match c {
                b';' | b'(' | b')' => return Ok(end),
                b'A'..=b'Z' | b'a'..=b'z' => {
                    let start = self.pos;
                    let mut id_end = start;
                    let mut upper = true;
                    while let Some(&l) = self.b.get(id_end) {
                        match l {
                            b'A'..=b'Z' => {}
                            b'a'..=b'z' => upper = false,
                            _ => break,
                        }
                        id_end += 1;
                    }
                    let mut after = id_end;
                    while self.b.get(after).is_some_and(|&c| is_ws(c)) {
                        after += 1;
                    }
                    if self.b.get(after) != Some(&b'[') {
                        if let Some((close, prop)) = last
                            && self.try_extend(close, prop)?
                        {
                            end = self.pos;
                            last = Some((self.pos - 1, prop));
                            continue;
                        }
                        let property = self.slice(start, id_end).to_owned();
                        self.issue(start, id_end, Issue::MissingValue { property })?;
                        self.pos = id_end;
                        last = None;
                        continue;
                    }
                    let ident = if upper {
                        SmallStr::from_text(self.text, start, id_end)
                    } else {
                        let found = self.slice(start, id_end);
                        let kept: String = found.chars().filter(char::is_ascii_uppercase).collect();
                        if kept.is_empty() {
                            self.issue(
                                start,
                                id_end,
                                Issue::NoUppercaseIdent {
                                    found: found.to_owned(),
                                },
                            )?;
                            self.pos = after;
                            let _ = self.values(&SmallStr::new(found))?;
                            last = None;
                            continue;
                        }
                        self.issue(
                            start,
                            id_end,
                            Issue::LowercaseIdent {
                                found: found.to_owned(),
                                ident: kept.clone(),
                            },
                        )?;
                        SmallStr::from_string(kept)
                    };
                    self.pos = after;
                    let values = self.values(&ident)?;
                    end = self.pos;
                    let close = self.pos - 1;
                    let prop_index = match self.find_prop(&ident) {
                        Some(i) => {
                            let property = ident.as_str().to_owned();
                            self.issue(start, end, Issue::DuplicateProperty { property })?;
                            if let Some(p) = self.props.get_mut(i) {
                                p.values_mut().append(values);
                            }
                            i
                        }
                        None => {
                            self.add_prop(Property::from_parts(ident, values, Sp::new(start, end)))
                        }
                    };
                    last = Some((close, prop_index));
                }
                b'[' => {
                    let start = self.pos;
                    let _ = self.values(&SmallStr::new(""))?;
                    self.issue(start, self.pos, Issue::ValueWithoutProperty)?;
                    last = None;
                }
                _ => {
                    if let Some((close, prop)) = last
                        && self.try_extend(close, prop)?
                    {
                        end = self.pos;
                        last = Some((self.pos - 1, prop));
                        continue;
                    }
                    let property = last
                        .and_then(|(_, i)| self.props.get(i))
                        .map(|p| p.ident().to_owned());
                    self.skip_junk(
                        |c| {
                            matches!(c, b';' | b'(' | b')' | b'[')
                                || c.is_ascii_alphabetic()
                                || is_ws(c)
                        },
                        property,
                    )?;
                    last = None;
                }
            }
        }
    }

    /// After a value closed at `close`, the text at `self.pos` cannot follow
    /// it. If an unescaped `]` comes before any `[`, `;`, `(` or `)`, the
    /// `]` at `close` was part of the value: extend the value of property
    /// `prop` up to that `]`, escaping the first. Returns whether it did.
    fn try_extend(&mut self, close: usize, prop: usize) -> PResult<bool> {
        let mut i = close + 1;
        let stop = loop {
            match self.b.get(i) {
                Some(b'\\') => i += 2,
                Some(b']') => break i,
                Some(b'[' | b';' | b'(' | b')') | None => return Ok(false),
                Some(_) => i += 1,
            }
        };
        let property = self
            .props
            .get(prop)
            .map(|p| p.ident().to_owned())
            .unwrap_or_default();
        self.issue(close, close + 1, Issue::UnescapedBracket { property })?;
        let more = self.slice(close + 1, stop);
        if let Some(v) = self
            .props
            .get_mut(prop)
            .and_then(|p| p.values_mut().last_mut())
        {
            let mut raw = String::with_capacity(v.raw().len() + more.len() + 2);
            raw.push_str(v.raw());
            raw.push_str("\\]");
            raw.push_str(more);
            v.set_raw(SmallStr::from_string(raw), stop + 1);
        }
        self.pos = stop + 1;
        Ok(true)
    }

    /// One or more values `[...]` of property `ident`, `self.pos` at the
    /// first `[`.
    #[inline]
    fn values(&mut self, ident: &SmallStr) -> PResult<Values> {
        let first = self.value(ident)?;
        let mut values = Values::One(first);
        loop {
            let p = skip_ws(self.b, self.pos);
            if self.b.get(p) != Some(&b'[') {
                return Ok(values);
            }
            self.pos = p;
            let v = self.value(ident)?;
            values.push(v);
        }
    }

    /// One value, `self.pos` at its `[`; leaves `self.pos` after its `]`.
    #[inline]
    fn value(&mut self, ident: &SmallStr) -> PResult<Value> {
        let open = self.pos;
        let start = open + 1;
        let mut i = start;
        loop {
            match self.b.get(i) {
                Some(b']') => break,
                Some(b'\\') => i += 2,
                Some(_) => i += 1,
                None => return self.unterminated(ident, open, i),
            }
        }
        self.pos = i + 1;
        let raw = SmallStr::from_text(self.text, start, i);
        Ok(Value::from_parts(raw, Sp::new(open, i + 1)))
    }

    /// A value from its `[` at `open` to the end of the text, where the scan
    /// stopped at `i`.
    #[cold]
    fn unterminated(&mut self, ident: &SmallStr, open: usize, i: usize) -> PResult<Value> {
        let n = self.b.len();
        self.issue(
            open,
            n,
            Issue::UnterminatedValue {
                property: ident.as_str().to_owned(),
            },
        )?;
        // Keep the rest as the value, without a dangling `\`.
        let raw_end = if i > n { n - 1 } else { n };
        self.pos = n;
        let raw = SmallStr::new(self.slice(open + 1, raw_end));
        Ok(Value::from_parts(raw, Sp::new(open, n)))
    }
}
