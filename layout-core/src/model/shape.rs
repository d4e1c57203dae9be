//! The shape model: arrays, tuples, buffers, `token[]` and `opaque[]`.

use alloc::boxed::Box;
use alloc::vec::Vec;

use crate::model::{ArrayLayout, Errors, PrimitiveType};

/// One array dimension as written between the brackets.
///
/// ```
/// use xla_layout::Dim;
/// assert_eq!(Dim::Static(8).to_string(), "8");
/// assert_eq!(Dim::Bounded(456).to_string(), "<=456");
/// assert_eq!(Dim::Unbounded.to_string(), "?");
/// assert_eq!(Dim::Bounded(456).extent(), Some(456));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dim {
    /// `N`: a static size.
    Static(i64),
    /// `<=N`: a bounded dynamic size; layouts and sizes use the bound.
    Bounded(i64),
    /// `?`: an unbounded dynamic size.
    Unbounded,
}

impl Dim {
    /// The size used for layout and sizes: the static size or the bound; `None` for `?`.
    ///
    /// ```
    /// assert_eq!(xla_layout::Dim::Unbounded.extent(), None);
    /// ```
    pub fn extent(self) -> Option<i64> {
        match self {
            Dim::Static(n) | Dim::Bounded(n) => Some(n),
            Dim::Unbounded => None,
        }
    }

    /// True for `<=N` and `?`.
    ///
    /// ```
    /// assert!(xla_layout::Dim::Bounded(3).is_dynamic());
    /// assert!(!xla_layout::Dim::Static(3).is_dynamic());
    /// ```
    pub fn is_dynamic(self) -> bool {
        !matches!(self, Dim::Static(_))
    }
}

/// An array shape: element type, dimensions and layout, such as `f32[2,3]{1,0}`.
///
/// Every array has a layout; text without one gets the default, as XLA's parser does.
///
/// ```
/// use xla_layout::{ArrayShape, ArrayLayout, PrimitiveType, Tile};
/// let a = ArrayShape::new(PrimitiveType::Bf16, [8, 1, 1280, 16384]).with_layout(
///     ArrayLayout::new([3, 2, 0, 1]).with_tiles([Tile::new([8, 128]), Tile::new([2, 1])]),
/// );
/// assert_eq!(a.to_string(), "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}");
/// assert!(a.validate().is_ok());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ArrayShape {
    /// The element type.
    pub element_type: PrimitiveType,
    /// Dimensions, logical dimension 0 first.
    pub dims: Vec<Dim>,
    /// The layout.
    pub layout: ArrayLayout,
}

impl ArrayShape {
    /// A static array with the default (descending) layout.
    ///
    /// ```
    /// use xla_layout::{ArrayShape, PrimitiveType};
    /// assert_eq!(ArrayShape::new(PrimitiveType::F32, [2, 3]).to_string(), "f32[2,3]{1,0}");
    /// assert_eq!(ArrayShape::new(PrimitiveType::F32, []).to_string(), "f32[]");
    /// ```
    pub fn new(element_type: PrimitiveType, dims: impl IntoIterator<Item = i64>) -> Self {
        Self::with_dims(element_type, dims.into_iter().map(Dim::Static))
    }

    /// An array with explicit [`Dim`]s (bounded or unbounded) and the default layout.
    ///
    /// ```
    /// use xla_layout::{ArrayShape, Dim, PrimitiveType};
    /// let a = ArrayShape::with_dims(PrimitiveType::F32, [Dim::Unbounded, Dim::Static(784)]);
    /// assert_eq!(a.to_string(), "f32[?,784]{1,0}");
    /// ```
    pub fn with_dims(element_type: PrimitiveType, dims: impl IntoIterator<Item = Dim>) -> Self {
        let dims: Vec<Dim> = dims.into_iter().collect();
        let layout = ArrayLayout::descending(dims.len());
        ArrayShape {
            element_type,
            dims,
            layout,
        }
    }

    /// Replaces the layout.
    ///
    /// ```
    /// use xla_layout::{ArrayShape, ArrayLayout, PrimitiveType};
    /// let a = ArrayShape::new(PrimitiveType::F32, [2, 3]).with_layout(ArrayLayout::new([0, 1]));
    /// assert_eq!(a.to_string(), "f32[2,3]{0,1}");
    /// ```
    pub fn with_layout(mut self, layout: ArrayLayout) -> Self {
        self.layout = layout;
        self
    }

    /// The number of dimensions.
    ///
    /// ```
    /// assert_eq!(xla_layout::parse_array("f32[2,3,4]").unwrap().rank(), 3);
    /// ```
    pub fn rank(&self) -> usize {
        self.dims.len()
    }

    /// Checks this array against every rule of XLA's verifier plus this crate's stricter ones,
    /// returning all problems found.
    ///
    /// ```
    /// use xla_layout::{ArrayShape, ArrayLayout, PrimitiveType};
    /// let a = ArrayShape::new(PrimitiveType::F32, [2, 3]).with_layout(ArrayLayout::new([0, 0]));
    /// let errs = a.validate().unwrap_err();
    /// assert!(errs[0].message().contains("twice"));
    /// ```
    pub fn validate(&self) -> Result<(), Errors> {
        crate::model::validate::validate_array(self)
    }
}

/// Any XLA shape.
///
/// ```
/// let s: xla_layout::Shape = "(f32[1572864],s8[5120,1024])".parse().unwrap();
/// assert_eq!(s.to_string(), "(f32[1572864]{0}, s8[5120,1024]{1,0})");
/// ```
#[derive(Eq)]
pub enum Shape {
    /// An array such as `f32[2,3]{1,0}`.
    Array(ArrayShape),
    /// A tuple `(a, b, ...)`; `()` is the empty tuple.
    Tuple(Vec<Shape>),
    /// A buffer `b(array)`.
    Buffer(Box<ArrayShape>),
    /// `token[]`.
    Token,
    /// `opaque[]`.
    Opaque,
}

impl Shape {
    /// The array, if this is one.
    ///
    /// ```
    /// let s: xla_layout::Shape = "token[]".parse().unwrap();
    /// assert!(s.as_array().is_none());
    /// ```
    pub fn as_array(&self) -> Option<&ArrayShape> {
        match self {
            Shape::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The array, by value, if this is one; else the shape itself back. (`Shape` has its own
    /// `Drop`, so a `match` cannot move an array out of it.)
    ///
    /// ```
    /// let s: xla_layout::Shape = "f32[2]".parse().unwrap();
    /// assert_eq!(s.into_array().unwrap().to_string(), "f32[2]{0}");
    /// ```
    #[expect(
        clippy::result_large_err,
        reason = "the error is the shape itself, handed back by value as `Box::try_from` does"
    )]
    pub fn into_array(mut self) -> Result<ArrayShape, Shape> {
        match &mut self {
            Shape::Array(a) => Ok(core::mem::replace(
                a,
                ArrayShape::new(PrimitiveType::Pred, []),
            )),
            _ => Err(self),
        }
    }

    /// Validates every array in the shape (see [`ArrayShape::validate`]).
    ///
    /// ```
    /// use xla_layout::{ArrayShape, ArrayLayout, PrimitiveType, Shape};
    /// let bad = ArrayShape::new(PrimitiveType::F32, [2]).with_layout(ArrayLayout::new([1]));
    /// let s = Shape::Tuple(vec![Shape::Token, Shape::Array(bad)]);
    /// assert!(s.validate().is_err());
    /// ```
    pub fn validate(&self) -> Result<(), Errors> {
        crate::model::validate::validate_shape(self, None)
    }
}

impl From<ArrayShape> for Shape {
    fn from(a: ArrayShape) -> Self {
        Shape::Array(a)
    }
}

/// The deepest tuple/buffer nesting the parser accepts. XLA allows 32768; real HLO nests a
/// few levels, and a fixed bound keeps every recursive walk far from the stack limit.
///
/// ```
/// let deep = format!("{}f32[]{}", "(".repeat(300), ")".repeat(300));
/// assert!(xla_layout::parse(&deep).is_err());
/// ```
pub const MAX_NESTING: usize = 256;

impl Shape {
    /// What kind of shape this is, for messages ("an array", "a tuple", ...).
    pub(crate) fn kind_name(&self) -> &'static str {
        match self {
            Shape::Array(_) => "an array",
            Shape::Tuple(_) => "a tuple",
            Shape::Buffer(_) => "a buffer",
            Shape::Token => "`token[]`",
            Shape::Opaque => "`opaque[]`",
        }
    }
}

impl Shape {
    /// A copy of a shape that is not a tuple.
    fn clone_leaf(&self) -> Shape {
        match self {
            Shape::Array(a) => Shape::Array(a.clone()),
            Shape::Buffer(a) => Shape::Buffer(a.clone()),
            Shape::Tuple(_) => Shape::Tuple(Vec::new()),
            Shape::Token => Shape::Token,
            Shape::Opaque => Shape::Opaque,
        }
    }
}

impl Clone for Shape {
    /// Copies nested tuples with a heap stack instead of recursion (see [`Drop`]).
    ///
    /// ```
    /// let s: xla_layout::Shape = "((f32[2]), token[])".parse().unwrap();
    /// assert_eq!(s.clone(), s);
    /// ```
    fn clone(&self) -> Shape {
        let Shape::Tuple(top) = self else {
            return self.clone_leaf();
        };
        // Each open tuple: the elements still to copy and the copies made so far.
        let mut open = alloc::vec![(top.iter(), Vec::with_capacity(top.len()))];
        while let Some((rest, copied)) = open.last_mut() {
            match rest.next() {
                Some(Shape::Tuple(inner)) => {
                    open.push((inner.iter(), Vec::with_capacity(inner.len())))
                }
                Some(leaf) => copied.push(leaf.clone_leaf()),
                None => {
                    let tuple = Shape::Tuple(core::mem::take(copied));
                    open.pop();
                    match open.last_mut() {
                        Some((_, parent)) => parent.push(tuple),
                        None => return tuple,
                    }
                }
            }
        }
        Shape::Tuple(Vec::new())
    }
}

impl PartialEq for Shape {
    /// Compares nested tuples with a heap stack instead of recursion (see [`Drop`]).
    ///
    /// ```
    /// let a: xla_layout::Shape = "(f32[2], (s8[3]))".parse().unwrap();
    /// let b: xla_layout::Shape = "(f32[2]{0}, (s8[3]{0}))".parse().unwrap();
    /// assert_eq!(a, b);
    /// assert_ne!(a, "(f32[2], s8[3])".parse().unwrap());
    /// ```
    fn eq(&self, other: &Shape) -> bool {
        let mut pairs = alloc::vec![(self, other)];
        while let Some(pair) = pairs.pop() {
            match pair {
                (Shape::Tuple(a), Shape::Tuple(b)) if a.len() == b.len() => {
                    pairs.extend(a.iter().zip(b));
                }
                (Shape::Array(a), Shape::Array(b)) if a == b => {}
                (Shape::Buffer(a), Shape::Buffer(b)) if a == b => {}
                (Shape::Token, Shape::Token) | (Shape::Opaque, Shape::Opaque) => {}
                _ => return false,
            }
        }
        true
    }
}

impl core::hash::Hash for Shape {
    /// Hashes the shapes in pre-order with each tuple's length, with a heap stack instead of
    /// recursion (see [`Drop`]); equal shapes hash equally.
    ///
    /// ```
    /// use std::collections::HashSet;
    /// let a: xla_layout::Shape = "(f32[2], (s8[3]))".parse().unwrap();
    /// let set: HashSet<_> = [a.clone(), a].into_iter().collect();
    /// assert_eq!(set.len(), 1);
    /// ```
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        let mut stack = alloc::vec![self];
        while let Some(shape) = stack.pop() {
            core::mem::discriminant(shape).hash(state);
            match shape {
                Shape::Array(a) => a.hash(state),
                Shape::Buffer(a) => a.hash(state),
                Shape::Tuple(elements) => {
                    elements.len().hash(state);
                    stack.extend(elements.iter().rev());
                }
                Shape::Token | Shape::Opaque => {}
            }
        }
    }
}

impl Drop for Shape {
    /// Drops nested tuples with a heap stack instead of recursion, so that a shape built in
    /// code, however deep, never overflows the call stack.
    fn drop(&mut self) {
        let Shape::Tuple(elements) = self else {
            return;
        };
        if elements.iter().all(|e| !matches!(e, Shape::Tuple(_))) {
            return;
        }
        let mut stack: Vec<Shape> = core::mem::take(elements);
        while let Some(mut shape) = stack.pop() {
            if let Shape::Tuple(inner) = &mut shape {
                stack.append(inner);
            }
        }
    }
}

/// `Debug` is the canonical text in `Shape(...)`: written without recursion (as `Display`), so
/// a tuple nested a million deep in code prints without overflowing the stack.
///
/// ```
/// let s: xla_layout::Shape = "(f32[2], s32[])".parse().unwrap();
/// assert_eq!(format!("{s:?}"), "Shape((f32[2]{0}, s32[]))");
/// ```
impl core::fmt::Debug for Shape {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Shape({self})")
    }
}
