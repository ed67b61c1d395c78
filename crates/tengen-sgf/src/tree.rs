//! Game trees as flat arenas of nodes.
//!
//! A game tree is a `Vec` of nodes plus parent and child indices, never a
//! nested structure: building, walking, comparing, writing and dropping a
//! tree use no recursion, so a 100,000-move main line or an OGS file that
//! nests one variation per move (`(;B[aa](;W[bb](;...`) is as safe on a small
//! thread stack as a short game.

use crate::error::{BuildError, Span};
use crate::small::SmallStr;
use crate::text;

/// A node of one [`GameTree`]. Only that tree's methods hand them out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub(crate) u32);

impl NodeId {
    /// The index of the node in its tree's arena (parsed trees: preorder).
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A compact span, stored in every node, property and value.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Sp {
    pub(crate) start: u32,
    pub(crate) end: u32,
}

impl Sp {
    /// A span of parsed text. The parser only reads texts shorter than
    /// `u32::MAX` bytes (longer ones are refused before parsing), so every
    /// offset fits: the casts cost nothing on the hot path.
    #[inline(always)]
    pub(crate) fn new(start: usize, end: usize) -> Sp {
        Sp {
            start: start as u32,
            end: end as u32,
        }
    }

    pub(crate) fn span(self) -> Span {
        Span::new(self.start as usize, self.end as usize)
    }
}

/// One property value, raw: exactly the text between the brackets, escapes
/// intact, so that writing it back gives the same bytes.
///
/// Equality compares the raw text only, not the span.
#[derive(Debug, Clone)]
pub struct Value {
    raw: SmallStr,
    span: Sp,
}

impl PartialEq for Value {
    fn eq(&self, other: &Self) -> bool {
        self.raw == other.raw
    }
}

impl Eq for Value {}

impl Value {
    #[inline(always)]
    pub(crate) fn from_parts(raw: SmallStr, span: Sp) -> Value {
        Value { raw, span }
    }

    pub(crate) fn set_raw(&mut self, raw: SmallStr, end: usize) {
        self.raw = raw;
        self.span.end = u32::try_from(end).unwrap_or(u32::MAX);
    }

    /// The text between the brackets as written, escapes intact (`a\]b`).
    pub fn raw(&self) -> &str {
        self.raw.as_str()
    }

    /// The value as SGF Text: escapes removed, soft line breaks (`\` before
    /// a line break) removed, hard line breaks kept as `\n`, other
    /// whitespace turned into spaces. For comments (`C`, `GC`).
    pub fn text(&self) -> String {
        text::unescape(self.raw(), false)
    }

    /// The value as SGF SimpleText: like [`Value::text`] but line breaks
    /// become spaces too. For names, results, rules (`PB`, `RE`, `RU`).
    pub fn simple_text(&self) -> String {
        text::unescape(self.raw(), true)
    }

    /// A composed value (`LB[aa:label]`, `AP[name:version]`, `SZ[19:13]`,
    /// `AB[aa:cc]`) split at its first unescaped `:`, each part decoded as
    /// SimpleText. `None` when there is no unescaped `:`.
    pub fn composed(&self) -> Option<(String, String)> {
        let (a, b) = text::split_composed(self.raw())?;
        Some((text::unescape(a, true), text::unescape(b, true)))
    }

    /// Like [`Value::composed`] but the parts stay raw.
    pub fn composed_raw(&self) -> Option<(&str, &str)> {
        text::split_composed(self.raw())
    }

    /// The value as a two-letter point (see [`parse_point`](crate::parse_point)).
    pub fn point(&self) -> Option<(u8, u8)> {
        text::parse_point(self.raw())
    }

    /// Where the value is in the decoded text, brackets included.
    pub fn span(&self) -> Span {
        self.span.span()
    }

    /// A value holding decoded text: `\` and `]` are escaped.
    pub fn from_text(text: &str) -> Value {
        Value::from_parts(
            SmallStr::from_string(text::escape(text, false)),
            Sp::default(),
        )
    }

    /// A composed value from two decoded parts: `\`, `]` and `:` are
    /// escaped in each, then they are joined by `:`.
    pub fn from_composed(first: &str, second: &str) -> Value {
        let mut raw = text::escape(first, true);
        raw.push(':');
        raw.push_str(&text::escape(second, true));
        Value::from_parts(SmallStr::from_string(raw), Sp::default())
    }

    /// A value from raw SGF text (escapes already in place). Fails if the
    /// text has an unescaped `]` or ends in a lone `\`, which could not be
    /// written back.
    pub fn from_raw(raw: &str) -> Result<Value, BuildError> {
        if text::is_valid_raw(raw) {
            Ok(Value::from_parts(SmallStr::new(raw), Sp::default()))
        } else {
            Err(BuildError::InvalidRaw(raw.to_owned()))
        }
    }
}

/// The values of one property: nearly always exactly one, kept inline.
#[derive(Debug, Clone)]
pub(crate) enum Values {
    One(Value),
    /// Boxed so that the common `One` keeps `Values` at 24 bytes: a plain
    /// `Vec` would not fit beside the niche and make every node bigger.
    #[allow(
        clippy::box_collection,
        reason = "one extra allocation for multi-valued properties keeps every node smaller"
    )]
    Many(Box<Vec<Value>>),
}

impl Values {
    pub(crate) fn as_slice(&self) -> &[Value] {
        match self {
            Values::One(v) => std::slice::from_ref(v),
            Values::Many(v) => v,
        }
    }

    pub(crate) fn last_mut(&mut self) -> Option<&mut Value> {
        match self {
            Values::One(v) => Some(v),
            Values::Many(v) => v.last_mut(),
        }
    }

    pub(crate) fn push(&mut self, value: Value) {
        match self {
            Values::Many(v) => v.push(value),
            Values::One(_) => {
                let old = std::mem::replace(self, Values::Many(Box::new(Vec::with_capacity(4))));
                if let (Values::One(first), Values::Many(v)) = (old, &mut *self) {
                    v.push(first);
                    v.push(value);
                }
            }
        }
    }

    pub(crate) fn append(&mut self, other: Values) {
        match other {
            Values::One(v) => self.push(v),
            Values::Many(vs) => {
                for v in *vs {
                    self.push(v);
                }
            }
        }
    }
}

/// A property: an identifier and one or more values.
///
/// Equality compares identifier and raw values, not spans.
#[derive(Debug, Clone)]
pub struct Property {
    ident: SmallStr,
    values: Values,
    span: Sp,
}

impl PartialEq for Property {
    fn eq(&self, other: &Self) -> bool {
        self.ident == other.ident && self.values() == other.values()
    }
}

impl Eq for Property {}

impl Property {
    #[inline(always)]
    pub(crate) fn from_parts(ident: SmallStr, values: Values, span: Sp) -> Property {
        Property {
            ident,
            values,
            span,
        }
    }

    pub(crate) fn ident_small(&self) -> &SmallStr {
        &self.ident
    }

    pub(crate) fn ident_bytes(&self) -> &[u8] {
        self.ident.as_bytes()
    }

    pub(crate) fn values_mut(&mut self) -> &mut Values {
        &mut self.values
    }

    pub(crate) fn take_values(self) -> Values {
        self.values
    }

    /// A property from an identifier (upper-case letters A-Z) and values. An
    /// empty list of values gives one empty value, written `[]`, so that the
    /// property can always be written.
    pub fn new(
        ident: &str,
        values: impl IntoIterator<Item = Value>,
    ) -> Result<Property, BuildError> {
        if ident.is_empty() || !ident.bytes().all(|c| c.is_ascii_uppercase()) {
            return Err(BuildError::InvalidIdent(ident.to_owned()));
        }
        let mut vals: Option<Values> = None;
        for v in values {
            match &mut vals {
                None => vals = Some(Values::One(v)),
                Some(vs) => vs.push(v),
            }
        }
        let values = vals
            .unwrap_or_else(|| Values::One(Value::from_parts(SmallStr::new(""), Sp::default())));
        Ok(Property::from_parts(
            SmallStr::new(ident),
            values,
            Sp::default(),
        ))
    }

    /// The identifier: upper-case letters (lenient parsing already dropped
    /// the lower-case letters of FF\[1\]-style names).
    pub fn ident(&self) -> &str {
        self.ident.as_str()
    }

    /// The values, in order (a parsed property has at least one).
    pub fn values(&self) -> &[Value] {
        self.values.as_slice()
    }

    /// The first value: for the many properties that take exactly one.
    pub fn first(&self) -> Option<&Value> {
        self.values().first()
    }

    /// From the identifier to the last `]` of the first occurrence in the
    /// decoded text (merged duplicates keep their own value spans).
    pub fn span(&self) -> Span {
        self.span.span()
    }
}

/// The properties of one node: often exactly one (a move), kept inline.
#[derive(Debug, Clone)]
enum Props {
    One(Property),
    Many(Vec<Property>),
}

impl Props {
    fn as_slice(&self) -> &[Property] {
        match self {
            Props::One(p) => std::slice::from_ref(p),
            Props::Many(v) => v,
        }
    }

    fn into_vec(self) -> Vec<Property> {
        match self {
            Props::One(p) => vec![p],
            Props::Many(v) => v,
        }
    }
}

/// A node: properties in the order they were written, one per identifier.
///
/// Equality compares the properties (identifiers and raw values, in
/// order), not spans.
#[derive(Debug, Clone)]
pub struct Node {
    props: Props,
    span: Sp,
}

impl PartialEq for Node {
    fn eq(&self, other: &Self) -> bool {
        self.properties() == other.properties()
    }
}

impl Eq for Node {}

impl Default for Node {
    fn default() -> Self {
        Node::new()
    }
}

static EMPTY_NODE: Node = Node {
    props: Props::Many(Vec::new()),
    span: Sp { start: 0, end: 0 },
};

impl Node {
    /// A node without properties.
    pub const fn new() -> Node {
        Node {
            props: Props::Many(Vec::new()),
            span: Sp { start: 0, end: 0 },
        }
    }

    #[inline(always)]
    pub(crate) fn from_one(prop: Option<Property>, span: Sp) -> Node {
        let props = match prop {
            Some(p) => Props::One(p),
            None => Props::Many(Vec::new()),
        };
        Node { props, span }
    }

    pub(crate) fn from_many(props: Vec<Property>, span: Sp) -> Node {
        Node {
            props: Props::Many(props),
            span,
        }
    }

    /// The properties, in the order written.
    pub fn properties(&self) -> &[Property] {
        self.props.as_slice()
    }

    /// The property with this identifier, if present.
    pub fn get(&self, ident: &str) -> Option<&Property> {
        self.properties()
            .iter()
            .find(|p| p.ident_bytes() == ident.as_bytes())
    }

    /// The first value of property `ident`, if present.
    pub fn value(&self, ident: &str) -> Option<&Value> {
        self.get(ident).and_then(Property::first)
    }

    /// Whether the node has no property.
    pub fn is_empty(&self) -> bool {
        self.properties().is_empty()
    }

    /// From the `;` to the end of its last property in the decoded text.
    pub fn span(&self) -> Span {
        self.span.span()
    }

    /// Runs `f` on the properties as a vector (the builders are not on the
    /// parsing path, so the conversion costs nothing that matters).
    fn with_props<R>(&mut self, f: impl FnOnce(&mut Vec<Property>) -> R) -> R {
        let mut v = std::mem::replace(&mut self.props, Props::Many(Vec::new())).into_vec();
        let r = f(&mut v);
        self.props = if v.len() == 1 {
            match v.pop() {
                Some(p) => Props::One(p),
                None => Props::Many(v),
            }
        } else {
            Props::Many(v)
        };
        r
    }

    /// Adds a property, or more values to an existing property with the
    /// same identifier (a node has one property per identifier).
    pub fn push_property(&mut self, property: Property) -> &mut Self {
        self.with_props(|props| {
            if let Some(existing) = props
                .iter_mut()
                .find(|p| p.ident_bytes() == property.ident_bytes())
            {
                existing.values_mut().append(property.take_values());
            } else {
                props.push(property);
            }
        });
        self
    }

    /// Adds a property whose values are decoded text (they are escaped as
    /// needed), or appends them to the property already there. An empty
    /// list gives one empty value `[]`. Fails on an identifier that is not
    /// upper-case letters A-Z.
    pub fn try_push<I, S>(&mut self, ident: &str, values: I) -> Result<&mut Self, BuildError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let p = text_property(ident, values)?;
        Ok(self.push_property(p))
    }

    /// Like [`Node::try_push`], for identifiers known to be valid: a
    /// lower-case letter or other character in `ident` is dropped, as the
    /// lenient reader does with FF\[1\] names (`KoMi` is `KM`), and an
    /// identifier left with no letter adds nothing. Use [`Node::try_push`]
    /// to get an error instead.
    pub fn push<I, S>(&mut self, ident: &str, values: I) -> &mut Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let upper: String = ident.chars().filter(char::is_ascii_uppercase).collect();
        if upper.is_empty() {
            return self;
        }
        // Cannot fail: `upper` is non-empty upper-case ASCII.
        let _ = self.try_push(&upper, values);
        self
    }

    /// Adds a property whose values are already built (see
    /// [`Value::from_composed`] and [`Value::from_raw`]).
    pub fn push_values(
        &mut self,
        ident: &str,
        values: impl IntoIterator<Item = Value>,
    ) -> Result<&mut Self, BuildError> {
        let p = Property::new(ident, values)?;
        Ok(self.push_property(p))
    }

    /// Replaces property `ident` (or adds it at the end) with these decoded
    /// text values.
    pub fn set<I, S>(&mut self, ident: &str, values: I) -> Result<&mut Self, BuildError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let p = text_property(ident, values)?;
        self.with_props(|props| {
            if let Some(existing) = props
                .iter_mut()
                .find(|e| e.ident_bytes() == p.ident_bytes())
            {
                *existing = p;
            } else {
                props.push(p);
            }
        });
        Ok(self)
    }

    /// Removes property `ident` and returns it.
    pub fn remove(&mut self, ident: &str) -> Option<Property> {
        self.with_props(|props| {
            let i = props
                .iter()
                .position(|p| p.ident_bytes() == ident.as_bytes())?;
            Some(props.remove(i))
        })
    }
}

const NONE: u32 = u32::MAX;

/// Parent and children of one node. Children are a block of `kids`:
/// `start..start + len`, with room for `cap` before the block must move.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Link {
    parent: u32,
    start: u32,
    len: u32,
    cap: u32,
}

impl Link {
    /// A parsed node under `parent` (`u32::MAX` for the root).
    pub(crate) fn parsed(parent: u32) -> Link {
        Link {
            parent,
            start: 0,
            len: 0,
            cap: 0,
        }
    }

    /// Counts one more child, while parsing.
    pub(crate) fn count_child(&mut self) {
        self.cap += 1;
    }
}

/// One game: a root node and its variations, stored flat.
///
/// Node ids index an arena; parsed trees number their nodes in preorder
/// (document order). Equality compares the trees' shapes and node contents,
/// not ids or spans.
#[derive(Debug, Clone)]
pub struct GameTree {
    nodes: Vec<Node>,
    links: Vec<Link>,
    kids: Vec<NodeId>,
}

impl Default for GameTree {
    fn default() -> Self {
        GameTree::new()
    }
}

impl GameTree {
    /// A tree with one empty root node.
    pub fn new() -> GameTree {
        GameTree::with_root(Node::new())
    }

    /// A tree with this root node.
    pub fn with_root(root: Node) -> GameTree {
        GameTree {
            nodes: vec![root],
            links: vec![Link {
                parent: NONE,
                start: 0,
                len: 0,
                cap: 0,
            }],
            kids: Vec::new(),
        }
    }

    /// Builds a tree from nodes in creation order (every parent before its
    /// children) and their links as parsing left them: parent set, children
    /// counted in `cap`. Children keep creation order.
    pub(crate) fn from_parsed(nodes: Vec<Node>, mut links: Vec<Link>) -> GameTree {
        let mut start = 0u32;
        for l in &mut links {
            l.start = start;
            start += l.cap;
        }
        let mut kids = vec![NodeId(0); start as usize];
        for i in 1..links.len() {
            let p = links.get(i).map_or(NONE, |l| l.parent);
            if let Some(l) = links.get_mut(p as usize) {
                if let Some(slot) = kids.get_mut((l.start + l.len) as usize) {
                    *slot = NodeId(i as u32);
                }
                l.len += 1;
            }
        }
        GameTree { nodes, links, kids }
    }

    /// The root node.
    pub fn root(&self) -> NodeId {
        NodeId(0)
    }

    /// A node. An id from another tree gives an empty node.
    pub fn node(&self, id: NodeId) -> &Node {
        self.nodes.get(id.index()).unwrap_or(&EMPTY_NODE)
    }

    /// A node, to edit its properties. `None` for an id from another tree.
    pub fn node_mut(&mut self, id: NodeId) -> Option<&mut Node> {
        self.nodes.get_mut(id.index())
    }

    /// The children of a node, main line first.
    pub fn children(&self, id: NodeId) -> &[NodeId] {
        match self.links.get(id.index()) {
            Some(l) => self
                .kids
                .get(l.start as usize..(l.start + l.len) as usize)
                .unwrap_or_default(),
            None => &[],
        }
    }

    /// The parent of a node; `None` for the root.
    pub fn parent(&self, id: NodeId) -> Option<NodeId> {
        match self.links.get(id.index()) {
            Some(l) if l.parent != NONE => Some(NodeId(l.parent)),
            _ => None,
        }
    }

    /// The main line: the root, then each first child.
    pub fn main_line(&self) -> impl Iterator<Item = NodeId> + '_ {
        std::iter::successors(Some(self.root()), move |&id| {
            self.children(id).first().copied()
        })
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Always false: a tree has at least its root.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Every node in preorder (a node, then each child's subtree in
    /// order), without recursion.
    pub fn nodes(&self) -> Preorder<'_> {
        Preorder {
            tree: self,
            stack: vec![self.root()],
        }
    }

    /// Adds `node` as the last child of `parent` and returns its id. A
    /// `parent` from another tree adds it under the root.
    pub fn add_child(&mut self, parent: NodeId, node: Node) -> NodeId {
        let parent = if parent.index() < self.nodes.len() {
            parent
        } else {
            self.root()
        };
        let id = NodeId(self.nodes.len() as u32);
        self.nodes.push(node);
        self.links.push(Link {
            parent: parent.0,
            start: 0,
            len: 0,
            cap: 0,
        });
        let kids_len = self.kids.len() as u32;
        let Some(l) = self.links.get_mut(parent.index()) else {
            return id;
        };
        if l.len < l.cap {
            if let Some(slot) = self.kids.get_mut((l.start + l.len) as usize) {
                *slot = id;
            }
        } else if l.start + l.len == kids_len {
            // The block is at the end: grow it in place.
            self.kids.push(id);
            l.cap += 1;
        } else {
            // Move the block to the end with room to grow (amortised O(1)).
            let cap = (l.len * 2).max(4);
            let (start, len) = (l.start as usize, l.len as usize);
            l.start = kids_len;
            l.cap = cap;
            self.kids.extend_from_within(start..start + len);
            self.kids.push(id);
            let pad = (cap - l.len - 1) as usize;
            self.kids.extend(std::iter::repeat_n(NodeId(NONE), pad));
        }
        l.len += 1;
        id
    }
}

impl PartialEq for GameTree {
    fn eq(&self, other: &Self) -> bool {
        if self.len() != other.len() {
            return false;
        }
        let mut stack = vec![(self.root(), other.root())];
        while let Some((a, b)) = stack.pop() {
            if self.node(a) != other.node(b) {
                return false;
            }
            let (ca, cb) = (self.children(a), other.children(b));
            if ca.len() != cb.len() {
                return false;
            }
            stack.extend(ca.iter().copied().zip(cb.iter().copied()));
        }
        true
    }
}

impl Eq for GameTree {}

/// Preorder walk of a [`GameTree`], with an explicit stack.
#[derive(Debug, Clone)]
pub struct Preorder<'a> {
    tree: &'a GameTree,
    stack: Vec<NodeId>,
}

impl Iterator for Preorder<'_> {
    type Item = NodeId;

    fn next(&mut self) -> Option<NodeId> {
        let id = self.stack.pop()?;
        self.stack
            .extend(self.tree.children(id).iter().rev().copied());
        Some(id)
    }
}

/// The game trees of one file, in order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Collection {
    /// The games.
    pub trees: Vec<GameTree>,
}

impl Collection {
    /// No games.
    pub fn new() -> Collection {
        Collection::default()
    }

    /// Number of games.
    pub fn len(&self) -> usize {
        self.trees.len()
    }

    /// Whether there is no game.
    pub fn is_empty(&self) -> bool {
        self.trees.is_empty()
    }

    /// Sets `CA[UTF-8]` and `FF[4]` in every root: for saving the
    /// writer's output as UTF-8 bytes, whatever charset the
    /// file was read from. `CA` exists only from FF\[4\] on, and the
    /// writer writes FF\[4\] syntax, so the format is said with it.
    pub fn set_charset_utf8(&mut self) {
        for tree in &mut self.trees {
            let root = tree.root();
            if let Some(node) = tree.node_mut(root) {
                let _ = node.set("CA", ["UTF-8"]);
                let _ = node.set("FF", ["4"]);
            }
        }
    }
}

/// A property of decoded text values (escaped as needed).
fn text_property<I, S>(ident: &str, values: I) -> Result<Property, BuildError>
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    Property::new(
        ident,
        values.into_iter().map(|s| Value::from_text(s.as_ref())),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        // Keep nodes small: memory per node bounds what a hostile file costs.
        assert_eq!(std::mem::size_of::<Value>(), 24);
        assert_eq!(std::mem::size_of::<Property>(), 48);
        assert_eq!(std::mem::size_of::<Node>(), 56);
    }

    #[test]
    fn build_and_walk() {
        let mut t = GameTree::new();
        let r = t.root();
        let a = t.add_child(r, Node::new());
        let b = t.add_child(r, Node::new());
        let a1 = t.add_child(a, Node::new());
        let c = t.add_child(r, Node::new());
        let a2 = t.add_child(a, Node::new());
        let b1 = t.add_child(b, Node::new());
        for _ in 0..10 {
            t.add_child(a, Node::new());
            t.add_child(b, Node::new());
        }
        assert_eq!(t.children(r), &[a, b, c]);
        assert_eq!(&t.children(a)[..2], &[a1, a2]);
        assert_eq!(t.children(a).len(), 12);
        assert_eq!(t.children(b)[0], b1);
        assert_eq!(t.children(b).len(), 11);
        assert_eq!(t.parent(a2), Some(a));
        assert_eq!(t.parent(r), None);
        assert_eq!(t.main_line().collect::<Vec<_>>(), vec![r, a, a1]);
        let pre: Vec<_> = t.nodes().collect();
        assert_eq!(pre.len(), t.len());
        assert_eq!(&pre[..4], &[r, a, a1, a2]);
        assert_eq!(t, t.clone());
    }

    #[test]
    fn node_builder() {
        let mut n = Node::new();
        n.push("C", ["a]b\\c"])
            .push("AB", ["aa", "bb"])
            .push("AB", ["cc"]);
        n.push("KoMi", ["6.5"]).push("xyz", ["dropped"]);
        assert_eq!(n.get("C").unwrap().first().unwrap().raw(), "a\\]b\\\\c");
        assert_eq!(n.get("C").unwrap().first().unwrap().text(), "a]b\\c");
        assert_eq!(n.get("AB").unwrap().values().len(), 3);
        assert_eq!(n.value("KM").unwrap().raw(), "6.5");
        assert_eq!(n.properties().len(), 3);
        assert!(n.try_push("b", ["x"]).is_err());
        n.push_values("LB", [Value::from_composed("aa", "x:y")])
            .unwrap();
        assert_eq!(n.value("LB").unwrap().raw(), "aa:x\\:y");
        assert_eq!(
            n.value("LB").unwrap().composed().unwrap(),
            ("aa".into(), "x:y".into())
        );
        n.set("C", ["new"]).unwrap();
        assert_eq!(n.value("C").unwrap().raw(), "new");
        assert!(n.remove("C").is_some());
        assert!(n.get("C").is_none());
        n.push("PL", Vec::<String>::new());
        assert_eq!(n.value("PL").unwrap().raw(), "");
        assert!(Value::from_raw("a]").is_err());
    }
}
