//! A triangle mesh's convex bound, the hull of a few extreme vertices grown by a margin
//! that holds every other vertex ([`TriMesh::hull`]), and through it every shape's
//! ([`Shape::convex_bound`]).
//!
//! The margin is measured with GJK ([`gjk::closest_points`], an upper bound of each
//! vertex's distance from the chosen vertices' hull), so the reduction is a query: it is
//! made here, and `shape` (a floor below) only keeps what it picks, from the first time
//! it is asked for. `collision::CollisionWorld::new` asks for every mesh's, so that no
//! check pays for it.
use super::closest_features::ConvexPolyhedron;
use super::gjk;
use crate::math::{Point3, Real, Vector3};
use crate::shape::{MeshHull, ReducedHull, SCANNED_VERTICES, Shape, SupportMap, TriMesh, VertexGraph};

impl TriMesh {
    /// The mesh's convex hull as a support map (every point of the mesh lies in it).
    pub fn hull(&self) -> MeshHull<'_> {
        self.hull_with(reduced_hull)
    }
}

impl Shape {
    /// A convex support map that holds the whole shape: the shape itself, a mesh's
    /// convex hull, a voxel map's box.
    pub fn convex_bound(&self) -> Box<dyn SupportMap + '_> {
        match self {
            Shape::TriMesh(m) => Box::new(m.hull()),
            Shape::VoxelMap(m) => Box::new(m.local_aabb()),
            Shape::Cuboid(s) => Box::new(*s),
            Shape::Ball(s) => Box::new(*s),
            Shape::Cylinder(s) => Box::new(*s),
            Shape::Cone(s) => Box::new(*s),
            Shape::Capsule(s) => Box::new(*s),
        }
    }
}

/// The reduction ([`extreme_vertices`]) with its hull's vertex graph, so that support
/// points come by hill climbing over a few neighbours at a time rather than by a scan
/// of the tens to hundreds of vertices the reduction keeps.
///
/// The graph is that of `ConvexPolyhedron::from_points` (the hull checked closed and
/// convex), whose corners replace the chosen vertices: the points it drops lie within
/// 1e-12 of the hull's size of its surface, which the margin's added 1e-9 covers. Where
/// the hull cannot be built (flat clouds), support points come by the scan.
fn reduced_hull(points: &[Point3]) -> ReducedHull {
    let (vertices, margin) = extreme_vertices(points);
    if vertices.len() > SCANNED_VERTICES
        && let Ok(hull) = ConvexPolyhedron::from_points(&vertices)
    {
        let size = vertices.iter().map(|p| p.coords.norm()).fold(0.0, Real::max);
        let lists: Vec<Vec<u32>> = (0..hull.vertex_count() as u32).map(|v| hull.neighbours(v).collect()).collect();
        let graph = VertexGraph::new(&lists);
        return ReducedHull { vertices: hull.vertices().to_vec(), margin: margin + 1e-9 * (1.0 + size), graph: Some(graph) };
    }
    ReducedHull { vertices, margin, graph: None }
}

/// Extreme vertices along many directions (a Fibonacci sphere), and the largest
/// distance of any vertex from their hull (an upper bound, from GJK), rounded up.
fn extreme_vertices(points: &[Point3]) -> (Vec<Point3>, Real) {
    const DIRECTIONS: usize = 200;
    if points.len() <= DIRECTIONS / 4 {
        return (points.to_vec(), 0.0);
    }
    let golden = std::f64::consts::PI * (3.0 - 5f64.sqrt());
    let mut chosen: Vec<usize> = (0..DIRECTIONS)
        .map(|k| {
            let z = 1.0 - 2.0 * (k as Real + 0.5) / DIRECTIONS as Real;
            let r = (1.0 - z * z).sqrt();
            let d = Vector3::new(r * (golden * k as Real).cos(), r * (golden * k as Real).sin(), z);
            (0..points.len()).max_by(|&a, &b| points[a].coords.dot(&d).total_cmp(&points[b].coords.dot(&d))).expect("points")
        })
        .collect();
    let identity = crate::math::Isometry3::identity();
    let scale = points.iter().map(|p| p.coords.norm()).fold(0.0, Real::max);
    let tolerance = 1e-6 * (1.0 + scale);
    // Add the vertices that stick out of the chosen ones' hull until none does by more
    // than the tolerance; the margin covers what remains.
    loop {
        chosen.sort_unstable();
        chosen.dedup();
        let vertices: Vec<Point3> = chosen.iter().map(|&i| points[i]).collect();
        let hull = MeshHull::new(&vertices, 0.0);
        let outside: Vec<(usize, Real)> = points
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let ball = crate::shape::Ball { radius: 0.0 };
                // GJK's distance is an upper bound of the true one.
                let cp = gjk::closest_points(&hull, &identity, &ball, &crate::math::Isometry3::translation(p.x, p.y, p.z));
                (i, cp.distance)
            })
            .collect();
        let far: Vec<usize> = outside.iter().filter(|(_, d)| *d > tolerance).map(|(i, _)| *i).collect();
        if far.is_empty() || chosen.len() + far.len() >= points.len() {
            if !far.is_empty() {
                return (points.to_vec(), 0.0);
            }
            let margin = outside.iter().map(|(_, d)| *d).fold(0.0, Real::max);
            return (vertices, margin * (1.0 + 1e-9) + 1e-12 * (1.0 + scale));
        }
        chosen.extend(far);
    }
}
