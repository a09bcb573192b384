//! Support functions of convex shapes, the input of GJK (`query::gjk`).
//!
//! Balls and capsules are a *core* (a point, a segment) plus a `margin`: GJK runs on
//! the cores and the margins are added afterwards, which is exact for round shapes.
use super::primitives::{Ball, Capsule, Cone, Cuboid, Cylinder};
use crate::bounding_volume::Aabb;
use crate::math::{Isometry3, Point3, Real, Triangle, Vector3};
use std::sync::atomic::{AtomicU32, Ordering};

pub trait SupportMap {
    /// The point of the core shape farthest along `dir` (any point if `dir` is zero).
    fn core_support(&self, dir: &Vector3) -> Point3;

    /// Radius added around the core (0 for sharp shapes).
    fn margin(&self) -> Real {
        0.0
    }

    /// Support point of the full shape.
    fn support(&self, dir: &Vector3) -> Point3 {
        let p = self.core_support(dir);
        let m = self.margin();
        if m == 0.0 {
            return p;
        }
        let n = dir.norm();
        if n > 0.0 { p + dir * (m / n) } else { p }
    }
}

/// The exact axis-aligned box of a convex shape placed by `pose`, from six supports.
pub fn support_aabb(shape: &dyn SupportMap, pose: &Isometry3) -> Aabb {
    let mut aabb = Aabb::empty();
    for axis in 0..3 {
        let mut dir = Vector3::zeros();
        dir[axis] = 1.0;
        let local = pose.rotation.inverse_transform_vector(&dir);
        aabb.maxs[axis] = (pose * shape.support(&local))[axis];
        aabb.mins[axis] = (pose * shape.support(&-local))[axis];
    }
    aabb
}

fn sign(x: Real) -> Real {
    if x < 0.0 { -1.0 } else { 1.0 }
}

impl SupportMap for Cuboid {
    fn core_support(&self, d: &Vector3) -> Point3 {
        let h = &self.half_extents;
        Point3::new(sign(d.x) * h.x, sign(d.y) * h.y, sign(d.z) * h.z)
    }
}

impl SupportMap for Ball {
    fn core_support(&self, _dir: &Vector3) -> Point3 {
        Point3::origin()
    }
    fn margin(&self) -> Real {
        self.radius
    }
}

impl SupportMap for Capsule {
    fn core_support(&self, d: &Vector3) -> Point3 {
        Point3::new(0.0, 0.0, sign(d.z) * self.half_height)
    }
    fn margin(&self) -> Real {
        self.radius
    }
}

impl SupportMap for Cylinder {
    fn core_support(&self, d: &Vector3) -> Point3 {
        let r = (d.x * d.x + d.y * d.y).sqrt();
        let z = sign(d.z) * self.half_height;
        if r > 0.0 { Point3::new(d.x * self.radius / r, d.y * self.radius / r, z) } else { Point3::new(0.0, 0.0, z) }
    }
}

impl SupportMap for Cone {
    fn core_support(&self, d: &Vector3) -> Point3 {
        let apex = Point3::new(0.0, 0.0, self.half_height);
        let r = (d.x * d.x + d.y * d.y).sqrt();
        let rim = if r > 0.0 { Point3::new(d.x * self.radius / r, d.y * self.radius / r, -self.half_height) } else { Point3::new(0.0, 0.0, -self.half_height) };
        if apex.coords.dot(d) >= rim.coords.dot(d) { apex } else { rim }
    }
}

/// A triangle as a convex shape (for triangle-primitive tests at mesh leaves).
pub struct TriangleShape<'a>(pub &'a Triangle);

impl SupportMap for TriangleShape<'_> {
    fn core_support(&self, d: &Vector3) -> Point3 {
        let t = self.0;
        let (d0, d1, d2) = (t[0].coords.dot(d), t[1].coords.dot(d), t[2].coords.dot(d));
        if d0 >= d1 && d0 >= d2 {
            t[0]
        } else if d1 >= d2 {
            t[1]
        } else {
            t[2]
        }
    }
}

/// An axis-aligned box as a convex shape in the frame it is given in (a voxel's cube).
impl SupportMap for Aabb {
    fn core_support(&self, d: &Vector3) -> Point3 {
        Point3::new(
            if d.x < 0.0 { self.mins.x } else { self.maxs.x },
            if d.y < 0.0 { self.mins.y } else { self.maxs.y },
            if d.z < 0.0 { self.mins.z } else { self.maxs.z },
        )
    }
}

/// The support point of a vertex list: the first of the points farthest along `d`
/// (`None` for no points). The support function of their convex hull.
pub fn farthest_along(points: &[Point3], d: &Vector3) -> Option<Point3> {
    let (first, rest) = points.split_first()?;
    let (mut best, mut best_dot) = (*first, first.coords.dot(d));
    for p in rest {
        let dot = p.coords.dot(d);
        if dot > best_dot {
            best = *p;
            best_dot = dot;
        }
    }
    Some(best)
}

/// Polytopes with at most this many vertices are scanned for support points
/// ([`farthest_along`]); larger ones are climbed ([`hill_climb`]), where the walk pays
/// for itself.
pub const SCANNED_VERTICES: usize = 24;

/// The support point of a convex polytope's vertices by hill climbing over its vertex
/// graph (`neighbours`: the vertices joined to one by an edge, or more), from the vertex
/// `hint` holds (the last answer): on a convex polytope a vertex with no neighbour
/// farther along `d` is a farthest vertex. `hint` is left at the answer, so that the
/// next query, mostly along a nearby direction, climbs a step or two.
pub fn hill_climb<I: IntoIterator<Item = u32>>(vertices: &[Point3], neighbours: impl Fn(u32) -> I, hint: &AtomicU32, d: &Vector3) -> Point3 {
    let mut v = hint.load(Ordering::Relaxed).min(vertices.len() as u32 - 1);
    let mut best = vertices[v as usize].coords.dot(d);
    'climb: loop {
        for w in neighbours(v) {
            let along = vertices[w as usize].coords.dot(d);
            if along > best {
                (v, best) = (w, along);
                continue 'climb;
            }
        }
        break;
    }
    hint.store(v, Ordering::Relaxed);
    vertices[v as usize]
}

/// A convex polytope's vertex graph in compact form, for [`hill_climb`]: vertex `v`'s
/// neighbours are `neighbours[start[v]..start[v + 1]]`.
#[derive(Debug)]
pub struct VertexGraph {
    start: Vec<u32>,
    neighbours: Vec<u32>,
    /// Where the next climb starts.
    hint: AtomicU32,
}

impl Clone for VertexGraph {
    fn clone(&self) -> Self {
        Self { start: self.start.clone(), neighbours: self.neighbours.clone(), hint: AtomicU32::new(self.hint.load(Ordering::Relaxed)) }
    }
}

impl VertexGraph {
    /// The graph of per-vertex neighbour lists.
    pub fn new(lists: &[Vec<u32>]) -> Self {
        let mut start = Vec::with_capacity(lists.len() + 1);
        let mut neighbours = Vec::new();
        for list in lists {
            start.push(neighbours.len() as u32);
            neighbours.extend_from_slice(list);
        }
        start.push(neighbours.len() as u32);
        Self { start, neighbours, hint: AtomicU32::new(0) }
    }

    pub fn vertex_count(&self) -> usize {
        self.start.len() - 1
    }

    /// The vertex of `vertices` (the polytope's, in the graph's order) farthest along `d`.
    pub fn farthest_along(&self, vertices: &[Point3], d: &Vector3) -> Point3 {
        let neighbours = |v: u32| self.neighbours[self.start[v as usize] as usize..self.start[v as usize + 1] as usize].iter().copied();
        hill_climb(vertices, neighbours, &self.hint, d)
    }
}
