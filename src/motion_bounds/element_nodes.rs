//! The hierarchy of a collision element as both continuous methods walk it: the OBB
//! tree nodes of a mesh, the hierarchy of a voxel map down to its cubes, or the whole
//! primitive as one leaf.
use crate::bounding_volume::{Aabb, Obb};
use crate::collision::Element;
use crate::math::{Isometry3, Point3, Real, Triangle, Vector3};
use crate::partitioning::NodeContent;
use crate::shape::{Cuboid, Shape, SupportMap, TriangleShape, VoxelNodeContent};

/// Marks "the whole primitive" where a node index is expected.
pub const PRIMITIVE: u32 = u32::MAX;

/// What lies below a node.
#[derive(Clone, Copy, Debug)]
pub enum Leaf {
    Inner(u32, u32),
    Triangle,
    Primitive,
    /// One cube of a voxel map.
    Voxel,
}

/// The convex shape at a leaf, in its element's frame.
pub enum LeafShape<'e> {
    /// A primitive element.
    Primitive(&'e dyn SupportMap),
    /// A mesh's triangle.
    Triangle(Triangle),
    /// A voxel map's cube.
    Cube(Aabb),
    /// A whole mesh or voxel map (no leaf named): only a convex bound of it is known.
    Whole,
}

impl LeafShape<'_> {
    /// The leaf as a support map; `None` for [`LeafShape::Whole`].
    pub fn support_map(&self) -> Option<&dyn SupportMap> {
        (!matches!(self, LeafShape::Whole)).then_some(self as &dyn SupportMap)
    }
}

/// A leaf is convex (a whole mesh or map is not: ask [`LeafShape::support_map`] first).
impl SupportMap for LeafShape<'_> {
    fn core_support(&self, dir: &Vector3) -> Point3 {
        match self {
            LeafShape::Primitive(s) => s.core_support(dir),
            LeafShape::Triangle(t) => TriangleShape(t).core_support(dir),
            LeafShape::Cube(c) => c.core_support(dir),
            LeafShape::Whole => unreachable!("a whole mesh or map has no support map of its own"),
        }
    }

    fn margin(&self) -> Real {
        match self {
            LeafShape::Primitive(s) => s.margin(),
            _ => 0.0,
        }
    }
}

/// The convex shape of leaf `node` of an element (`PRIMITIVE`: the whole element).
pub fn leaf_shape(e: &Element, node: u32) -> LeafShape<'_> {
    match &e.shape {
        _ if node == PRIMITIVE && e.shape.as_support_map().is_none() => LeafShape::Whole,
        Shape::TriMesh(_) => LeafShape::Triangle(leaf_triangle(e, node)),
        Shape::VoxelMap(m) => match m.node_content(node) {
            VoxelNodeContent::Voxel(v) => LeafShape::Cube(m.voxel_cube(v)),
            VoxelNodeContent::Children(..) => LeafShape::Whole,
        },
        primitive => LeafShape::Primitive(primitive.as_support_map().expect("primitives are convex")),
    }
}

/// The triangle of a mesh's leaf node.
pub fn leaf_triangle(e: &Element, node: u32) -> Triangle {
    match &e.shape {
        Shape::TriMesh(m) => match m.obb_tree().nodes()[node as usize].content {
            NodeContent::Triangle(t) => m.triangle(t),
            NodeContent::Children(..) => unreachable!("work on triangles holds leaf nodes"),
        },
        _ => unreachable!("triangles come from meshes"),
    }
}

/// The box of a hierarchy node (or of the whole primitive) and what lies below it.
pub fn node_obb(e: &Element, node: u32) -> (Obb, Leaf) {
    match &e.shape {
        Shape::TriMesh(m) => {
            let n = &m.obb_tree().nodes()[node as usize];
            let leaf = match n.content {
                NodeContent::Children(l, r) => Leaf::Inner(l, r),
                NodeContent::Triangle(_) => Leaf::Triangle,
            };
            (n.obb, leaf)
        }
        Shape::VoxelMap(m) => {
            let leaf = match m.node_content(node) {
                VoxelNodeContent::Children(l, r) => Leaf::Inner(l, r),
                VoxelNodeContent::Voxel(_) => Leaf::Voxel,
            };
            (m.node_obb(node), leaf)
        }
        _ => (e.local_obb, Leaf::Primitive),
    }
}

/// A box as a cuboid centred in its own frame, and that frame.
pub fn obb_cuboid(obb: &Obb) -> (Cuboid, Isometry3) {
    (Cuboid { half_extents: obb.half_extents }, obb.frame())
}
