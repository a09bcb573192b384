//! Mesh queries: OBB-tree descent to exact leaf tests, and solid containment of
//! closed meshes and primitives either way.
use ccd_guard::math::{Isometry3, Point3, Vector3};
use ccd_guard::query::intersection::{TouchWitness, intersection_point, intersection_point_witnessed, mesh_convex_containment};
use ccd_guard::shape::{Ball, Cuboid, Shape, SupportMap, TriMesh};
use std::sync::Arc;

use crate::common::rng::Lcg64;

/// A closed axis-aligned box mesh `[-h, h]`, two triangles per face, outward.
fn box_mesh(h: f64) -> TriMesh {
    let v: Vec<Point3> =
        (0..8).map(|k| Point3::new(if k & 1 == 0 { -h } else { h }, if k & 2 == 0 { -h } else { h }, if k & 4 == 0 { -h } else { h })).collect();
    let t = vec![[0, 2, 1], [1, 2, 3], [4, 5, 6], [5, 7, 6], [0, 1, 4], [1, 5, 4], [2, 6, 3], [3, 6, 7], [0, 4, 2], [2, 4, 6], [1, 3, 5], [3, 7, 5]];
    TriMesh::new(v, t).unwrap()
}

fn mesh(h: f64) -> Shape {
    Shape::TriMesh(Arc::new(box_mesh(h)))
}

fn at(x: f64, y: f64, z: f64) -> Isometry3 {
    Isometry3::translation(x, y, z)
}

#[test]
fn closed_box_mesh_is_closed_and_contains_its_inside() {
    let m = box_mesh(0.5);
    assert!(m.is_closed());
    assert!(m.contains_point(&Point3::new(0.1, -0.2, 0.3)));
    assert!(!m.contains_point(&Point3::new(0.6, 0.0, 0.0)));
}

#[test]
fn primitive_inside_a_closed_mesh_collides() {
    let ball = Shape::Ball(Ball { radius: 0.1 });
    assert!(intersection_point(&mesh(0.5), &Isometry3::identity(), &ball, &at(0.2, 0.1, 0.0)).is_some());
    // Surface contact.
    assert!(intersection_point(&mesh(0.5), &Isometry3::identity(), &ball, &at(0.55, 0.0, 0.0)).is_some());
    assert!(intersection_point(&mesh(0.5), &Isometry3::identity(), &ball, &at(0.65, 0.0, 0.0)).is_none());
    // A ball that just fits a cube turned 45 degrees: its rotated bounding box would
    // stick out of the mesh's box, the ball does not.
    let turned = Isometry3::new(Vector3::zeros(), Vector3::new(0.3, 0.7, 0.785));
    let fits = Shape::Ball(Ball { radius: 0.49 });
    assert!(intersection_point(&mesh(0.5), &Isometry3::identity(), &fits, &turned).is_some());
}

#[test]
fn open_mesh_contains_nothing() {
    let closed = box_mesh(0.5);
    let open = TriMesh::new(closed.vertices().to_vec(), closed.triangle_indices()[..10].to_vec()).unwrap();
    assert!(!open.is_closed());
    let ball = Shape::Ball(Ball { radius: 0.1 });
    assert!(intersection_point(&Shape::TriMesh(Arc::new(open)), &Isometry3::identity(), &ball, &Isometry3::identity()).is_none());
}

#[test]
fn mesh_inside_a_primitive_collides() {
    let big = Shape::Cuboid(Cuboid { half_extents: Vector3::new(2.0, 2.0, 2.0) });
    let p = intersection_point(&mesh(0.5), &at(0.3, 0.0, 0.0), &big, &Isometry3::identity()).expect("contained");
    assert!(p.coords.amax() <= 2.0);
    assert!(intersection_point(&mesh(0.5), &at(3.0, 0.0, 0.0), &big, &Isometry3::identity()).is_none());
    // Off the primitive's centre, and inside a long box turned a quarter about z.
    assert!(intersection_point(&mesh(0.5), &at(1.2, 0.0, 0.0), &big, &Isometry3::identity()).is_some());
    let long = Shape::Cuboid(Cuboid { half_extents: Vector3::new(3.0, 0.6, 0.6) });
    let quarter = Isometry3::new(Vector3::new(5.0, -4.0, 1.0), Vector3::new(0.0, 0.0, std::f64::consts::FRAC_PI_2));
    assert!(intersection_point(&mesh(0.5), &at(5.0, -2.0, 1.0), &long, &quarter).is_some());
    assert!(intersection_point(&mesh(0.5), &at(7.0, -4.0, 1.0), &long, &quarter).is_none());
    // The containment test alone (the triangles inside a solid primitive find it too).
    let cube = box_mesh(0.5);
    assert!(mesh_convex_containment(&cube, &at(1.2, 0.0, 0.0), &big, &Isometry3::identity()).is_some());
    assert!(mesh_convex_containment(&cube, &at(5.0, -2.0, 1.0), &long, &quarter).is_some());
    assert!(mesh_convex_containment(&cube, &at(7.0, -4.0, 1.0), &long, &quarter).is_none());
}

#[test]
fn nested_and_crossing_meshes() {
    let outer = mesh(1.0);
    let inner = mesh(0.2);
    let turned = Isometry3::new(Vector3::new(0.1, 0.0, 0.0), Vector3::new(0.4, 0.2, 0.1));
    assert!(intersection_point(&outer, &Isometry3::identity(), &inner, &turned).is_some());
    assert!(intersection_point(&inner, &turned, &outer, &Isometry3::identity()).is_some());
    let p = intersection_point(&inner, &at(1.1, 0.0, 0.0), &outer, &Isometry3::identity()).expect("surfaces cross");
    assert!((p.x - 1.0).abs() <= 0.1 + 1e-9, "{p}");
    assert!(intersection_point(&inner, &at(1.3, 0.0, 0.0), &outer, &Isometry3::identity()).is_none());
}

/// A shape held inside another is at distance 0 whatever the cutoff: the surfaces may
/// all lie beyond it (the 100,000-case randomized run of 2026-11-25 found the clearance
/// search proving such a pair apart, its exact distance asked with a cutoff).
#[test]
fn held_inside_is_at_distance_zero_below_any_cutoff() {
    use ccd_guard::query::distance::shape_distance;
    let ball = Shape::Ball(Ball { radius: 0.1 });
    let (m, id, inside) = (mesh(0.5), Isometry3::identity(), at(0.05, 0.0, 0.0));
    for cutoff in [f64::INFINITY, 1.0, 0.3, 0.01, 1e-9] {
        let d = shape_distance(&m, &id, &ball, &inside, cutoff).map(|cp| cp.distance);
        assert_eq!(d, Some(0.0), "ball inside the mesh, cutoff {cutoff}");
        let d = shape_distance(&ball, &inside, &m, &id, cutoff).map(|cp| cp.distance);
        assert_eq!(d, Some(0.0), "the same, the other way round, cutoff {cutoff}");
        let small = Shape::TriMesh(Arc::new(box_mesh(0.05)));
        let d = shape_distance(&m, &id, &small, &inside, cutoff).map(|cp| cp.distance);
        assert_eq!(d, Some(0.0), "mesh inside the mesh, cutoff {cutoff}");
    }
    // Outside, the cutoff still ends the query.
    assert!(shape_distance(&m, &id, &ball, &at(1.0, 0.0, 0.0), 0.3).is_none());
    assert!(shape_distance(&m, &id, &ball, &at(1.0, 0.0, 0.0), 0.5).is_some());
}

/// The triangles across a triangle's edges (where a witness looks when its own
/// triangle no longer touches): on a closed box with its vertices given once per
/// triangle (as an STL has them), every triangle has three, each sharing exactly one
/// edge (two welded corners) with it, and each has it back; with a face's two triangles
/// left out, those along the hole have a border.
#[test]
fn edge_neighbours_share_one_edge_each() {
    let closed = box_mesh(0.5);
    let corner = |m: &TriMesh, t: u32| m.triangle(t).to_vec();
    let soup = |m: &TriMesh, skip: &[u32]| {
        let kept: Vec<u32> = (0..m.triangle_indices().len() as u32).filter(|t| !skip.contains(t)).collect();
        let vertices: Vec<Point3> = kept.iter().flat_map(|&t| corner(m, t)).collect();
        TriMesh::new(vertices, (0..kept.len() as u32).map(|k| [3 * k, 3 * k + 1, 3 * k + 2]).collect()).unwrap()
    };
    for (m, border) in [(soup(&closed, &[]), 0), (soup(&closed, &[0, 1]), 4)] {
        let mut borders = 0;
        for t in 0..m.triangle_indices().len() as u32 {
            let neighbours: Vec<u32> = m.edge_neighbours(t).collect();
            borders += 3 - neighbours.len();
            for &n in &neighbours {
                let shared = corner(&m, t).iter().filter(|p| corner(&m, n).contains(p)).count();
                assert_eq!(shared, 2, "triangle {t} and {n}");
                assert!(m.edge_neighbours(n).any(|back| back == t), "{n} does not have {t} back");
            }
            let mut distinct = neighbours.clone();
            distinct.sort_unstable();
            distinct.dedup();
            assert_eq!(distinct.len(), neighbours.len(), "triangle {t}: {neighbours:?}");
        }
        assert_eq!(borders, border);
    }
}

/// A march through contact and out again, for mesh against mesh and against primitives
/// (both ways round): with each pair's witness carried from sample to sample, the
/// answer is the plain test's at every sample; a foreign witness (indices the mesh does
/// not have) is harmless.
#[test]
fn witnessed_intersection_answers_as_the_plain_test_along_a_march() {
    let others = [mesh(0.3), Shape::Ball(Ball { radius: 0.25 }), Shape::Cuboid(Cuboid { half_extents: Vector3::new(0.4, 0.1, 0.2) })];
    let moving = mesh(0.2);
    for other in &others {
        for mesh_first in [true, false] {
            let mut witness = TouchWitness::TrianglePair(999, 999);
            let (mut touching, mut free, mut witnessed) = (0, 0, 0);
            for k in 0..=400 {
                let s = k as f64 / 400.0;
                // Across the other shape and out, turning as it goes.
                let pose = Isometry3::new(Vector3::new(-1.2 + 2.4 * s, 0.15 * (6.0 * s).sin(), 0.05), Vector3::new(0.3, 2.0 * s, 0.7 * s));
                let still = Isometry3::new(Vector3::new(0.05, -0.02, 0.0), Vector3::new(0.0, 0.2, 0.4));
                let (a, pa, b, pb) = if mesh_first { (&moving, pose, other, still) } else { (other, still, &moving, pose) };
                let plain = intersection_point(a, &pa, b, &pb).is_some();
                witnessed += (witness != TouchWitness::Unknown) as usize;
                let marching = intersection_point_witnessed(a, &pa, b, &pb, &mut witness).is_some();
                assert_eq!(marching, plain, "sample {k} of {other:?} (mesh first: {mesh_first}): witness {witness:?}");
                if plain { touching += 1 } else { free += 1 }
            }
            assert!(touching > 50 && free > 50 && witnessed > 50, "{touching} touching, {free} free, {witnessed} with a witness");
        }
    }
}

/// Marches through the inside of another solid and out: a small mesh across a large box
/// and a large closed mesh, a small ball and box across a large closed mesh (both ways
/// round). The answer is the plain test's at every sample, entering, held, and leaving.
/// Inside a closed mesh no surfaces meet, and the witness is the containment, tried
/// first for a good part of the march; inside a box, a triangle of the small mesh meets
/// the solid box and stays the witness.
#[test]
fn witnessed_intersection_answers_as_the_plain_test_through_a_containment() {
    let small_mesh = mesh(0.05);
    let big_box = Shape::Cuboid(Cuboid { half_extents: Vector3::new(0.5, 0.3, 0.4) });
    let big_mesh = mesh(0.4);
    let small_ball = Shape::Ball(Ball { radius: 0.04 });
    let small_box = Shape::Cuboid(Cuboid { half_extents: Vector3::new(0.05, 0.03, 0.04) });
    let marches: [(&Shape, &Shape, bool); 4] =
        [(&small_mesh, &big_box, false), (&small_mesh, &big_mesh, true), (&small_ball, &big_mesh, true), (&small_box, &big_mesh, true)];
    for (moving, still_shape, held_by_a_mesh) in marches {
        for moving_first in [true, false] {
            let mut witness = TouchWitness::Unknown;
            let (mut touching, mut free, mut held) = (0, 0, 0);
            for k in 0..=400 {
                let s = k as f64 / 400.0;
                let pose = Isometry3::new(Vector3::new(-1.2 + 2.4 * s, 0.05 * (6.0 * s).sin(), 0.02), Vector3::new(0.3, 2.0 * s, 0.7 * s));
                let still = Isometry3::new(Vector3::new(0.03, -0.02, 0.0), Vector3::new(0.0, 0.1, 0.2));
                let (a, pa, b, pb) = if moving_first { (moving, pose, still_shape, still) } else { (still_shape, still, moving, pose) };
                let plain = intersection_point(a, &pa, b, &pb).is_some();
                held += (witness == TouchWitness::Contained) as usize;
                let marching = intersection_point_witnessed(a, &pa, b, &pb, &mut witness).is_some();
                assert_eq!(marching, plain, "sample {k}, moving {moving:?} (first: {moving_first}): witness {witness:?}");
                if plain { touching += 1 } else { free += 1 }
            }
            assert!(touching > 50 && free > 50, "{touching} touching, {free} free");
            assert_eq!(held > 50, held_by_a_mesh, "{held} samples with the containment as witness");
        }
    }
}

/// A closed, bumpy (non-convex) sphere of `rings` x `2 rings` quads, radii jittered by
/// up to `bump`, deterministic in `seed`.
fn bumpy_sphere(radius: f64, bump: f64, rings: usize, seed: u64) -> TriMesh {
    let mut rng = Lcg64::new(seed);
    let mut next = || rng.f();
    let around = 2 * rings;
    let mut v = vec![Point3::new(0.0, 0.0, radius), Point3::new(0.0, 0.0, -radius)];
    for i in 1..rings {
        let theta = std::f64::consts::PI * i as f64 / rings as f64;
        for j in 0..around {
            let phi = 2.0 * std::f64::consts::PI * j as f64 / around as f64;
            let r = radius + bump * (next() - 0.5);
            v.push(Point3::new(r * theta.sin() * phi.cos(), r * theta.sin() * phi.sin(), r * theta.cos()));
        }
    }
    let ring = |i: usize, j: usize| (2 + (i - 1) * around + j % around) as u32;
    let mut t = Vec::new();
    for j in 0..around {
        t.push([0, ring(1, j), ring(1, j + 1)]);
        t.push([1, ring(rings - 1, j + 1), ring(rings - 1, j)]);
        for i in 1..rings - 1 {
            t.push([ring(i, j), ring(i + 1, j), ring(i + 1, j + 1)]);
            t.push([ring(i, j), ring(i + 1, j + 1), ring(i, j + 1)]);
        }
    }
    TriMesh::new(v, t).unwrap()
}

/// The mesh distances' branch and bound prunes node pairs by lower bounds of their
/// boxes' distance (the separating axes for two meshes and for a box, the centre's
/// distance for a ball, the axis's separation less the radius for a capsule and a
/// cylinder, GJK otherwise): every distance equals the least over all triangle pairs
/// (GJK on each), mesh against mesh and against a box, a ball, a capsule, a cylinder
/// and a cone, at poses from touching to 20 cm apart. A bound above the true distance of
/// its boxes would prune the closest pair and come out larger.
#[test]
fn mesh_distances_are_the_least_over_every_triangle_pair() {
    use ccd_guard::query::distance::{mesh_convex_distance, mesh_mesh_distance};
    use ccd_guard::query::gjk;
    use ccd_guard::shape::{Capsule, Cone, Cylinder, SupportMap, TriangleShape};
    let (a, b) = (bumpy_sphere(0.2, 0.08, 10, 1), bumpy_sphere(0.12, 0.05, 8, 2));
    let others = [
        Shape::Cuboid(Cuboid { half_extents: Vector3::new(0.15, 0.04, 0.1) }),
        Shape::Ball(Ball { radius: 0.07 }),
        Shape::Capsule(Capsule { half_height: 0.1, radius: 0.04 }),
        Shape::Cylinder(Cylinder { half_height: 0.12, radius: 0.05 }),
        Shape::Cylinder(Cylinder { half_height: 0.01, radius: 0.15 }),
        Shape::Cone(Cone { half_height: 0.1, radius: 0.06 }),
    ];
    let identity = Isometry3::identity();
    let least = |pose: &Isometry3, other: &dyn Fn(&TriangleShape, &Isometry3) -> f64| {
        (0..a.triangle_indices().len() as u32).map(|i| other(&TriangleShape(&a.triangle(i)), pose)).fold(f64::INFINITY, f64::min)
    };
    let mut rng = Lcg64::new(7);
    let mut next = || rng.f();
    let mut near = 0;
    for case in 0..60 {
        let direction = Vector3::new(next() - 0.5, next() - 0.5, next() - 0.5).normalize();
        let pose = Isometry3::new(direction * (0.25 + 0.3 * next()), Vector3::new(next() - 0.5, next() - 0.5, next() - 0.5) * 6.0);
        let brute = least(&pose, &|ta, p| {
            (0..b.triangle_indices().len() as u32)
                .map(|j| gjk::closest_points(ta, &identity, &TriangleShape(&b.triangle(j)), p).distance)
                .fold(f64::INFINITY, f64::min)
        });
        let found = mesh_mesh_distance(&a, &identity, &b, &pose, f64::INFINITY).map_or(f64::INFINITY, |cp| cp.distance);
        assert!((found - brute).abs() <= 1e-12, "case {case}, mesh: {found} against {brute}");
        for other in &others {
            let support = other.as_support_map().unwrap();
            let brute = least(&pose, &|ta, p| gjk::closest_points(ta, &identity, support as &dyn SupportMap, p).distance);
            let found = mesh_convex_distance(&a, &identity, other, &pose, f64::INFINITY).map_or(f64::INFINITY, |cp| cp.distance);
            assert!((found - brute).abs() <= 1e-12, "case {case}, {other:?}: {found} against {brute}");
            near += usize::from(brute > 0.0 && brute < 0.05);
        }
    }
    assert!(near > 30, "{near} pairs within 5 cm");
}

/// A cube of side `2 h` whose faces are `n` x `n` grids of quads, the grid points lifted
/// off their face by up to `bump` (outwards): a hull of many nearly coplanar corners.
fn bumpy_cube(h: f64, n: usize, bump: f64, seed: u64) -> TriMesh {
    let mut rng = Lcg64::new(seed);
    let mut next = || rng.f();
    let (mut v, mut t) = (Vec::new(), Vec::new());
    for axis in 0..3 {
        for side in [-1.0, 1.0] {
            let first = v.len() as u32;
            for i in 0..=n {
                for j in 0..=n {
                    let (a, b) = (-h + 2.0 * h * i as f64 / n as f64, -h + 2.0 * h * j as f64 / n as f64);
                    let mut p = [0.0; 3];
                    p[axis] = side * (h + bump * next());
                    (p[(axis + 1) % 3], p[(axis + 2) % 3]) = (a, b);
                    v.push(Point3::new(p[0], p[1], p[2]));
                }
            }
            let at = |i: usize, j: usize| first + (i * (n + 1) + j) as u32;
            for i in 0..n {
                for j in 0..n {
                    t.push([at(i, j), at(i + 1, j), at(i + 1, j + 1)]);
                    t.push([at(i, j), at(i + 1, j + 1), at(i, j + 1)]);
                }
            }
        }
    }
    TriMesh::new(v, t).unwrap()
}

/// A mesh's convex bound gives support points by hill climbing over its hull's vertex
/// graph, from the last answer: along every direction (random ones, each a small turn
/// from the last, and near the axes, where the nearly coplanar corners of a bumpy cube
/// compete), the point it climbs to is as far as the farthest of its vertices, and with
/// the margin as far as every vertex of the mesh. Round, stretched and box-like meshes
/// of hundreds of vertices (a climb that stopped at its first step, or at the hint,
/// falls short).
#[test]
fn mesh_hull_support_points_climb_to_the_farthest_vertex() {
    let stretched = {
        let round = bumpy_sphere(0.1, 0.02, 24, 7);
        let v = round.vertices().iter().map(|p| Point3::new(3.0 * p.x, p.y, 0.5 * p.z)).collect();
        TriMesh::new(v, round.triangle_indices().to_vec()).unwrap()
    };
    let meshes = [("round", bumpy_sphere(0.1, 0.01, 20, 3)), ("stretched", stretched), ("box-like", bumpy_cube(0.1, 12, 1e-4, 5))];
    let mut rng = Lcg64::new(0x9e37_79b9_7f4a_7c15);
    let mut next = || rng.f() - 0.5;
    for (name, mesh) in &meshes {
        let hull = mesh.hull();
        assert!(hull.graph().is_some_and(|g| g.vertex_count() == hull.vertices().len()), "{name}: a vertex graph");
        assert!(hull.vertices().len() > 24, "{name}: {} vertices, scanned", hull.vertices().len());
        let mut d = Vector3::new(1.0, 0.0, 0.0);
        for k in 0..20000 {
            let jitter = Vector3::new(next(), next(), next());
            d = match k % 3 {
                0 => jitter,
                1 => d + 0.05 * jitter,
                _ => {
                    let mut axis = Vector3::zeros();
                    axis[k % 9 / 3] = if k % 2 == 0 { 1.0 } else { -1.0 };
                    axis + 1e-3 * jitter
                }
            }
            .normalize();
            let climbed = hull.core_support(&d).coords.dot(&d);
            let farthest_kept = hull.vertices().iter().map(|v| v.coords.dot(&d)).fold(f64::NEG_INFINITY, f64::max);
            assert!(climbed >= farthest_kept, "{name}: climbed to {climbed}, a vertex lies at {farthest_kept} along {d:?}");
            let farthest = mesh.vertices().iter().map(|v| v.coords.dot(&d)).fold(f64::NEG_INFINITY, f64::max);
            assert!(hull.support(&d).coords.dot(&d) >= farthest, "{name}: the bound falls short of a mesh vertex along {d:?}");
        }
    }
}
