//! The hierarchy of a collision element as both continuous methods walk it: the OBB
//! tree nodes of a mesh, or the whole primitive as one leaf.
use crate::bounding_volume::Obb;
use crate::collision::Element;
use crate::math::{Isometry3, Triangle};
use crate::partitioning::NodeContent;
use crate::shape::{Cuboid, Shape};

/// Marks "the whole primitive" where a node index is expected.
pub const PRIMITIVE: u32 = u32::MAX;

/// What lies below a node.
#[derive(Clone, Copy, Debug)]
pub enum Leaf {
    Inner(u32, u32),
    Triangle,
    Primitive,
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
        _ => (e.local_obb, Leaf::Primitive),
    }
}

/// A box as a cuboid centred in its own frame, and that frame.
pub fn obb_cuboid(obb: &Obb) -> (Cuboid, Isometry3) {
    (Cuboid { half_extents: obb.half_extents }, obb.frame())
}
