//! Lin–Canny closest features (Lin 1993) under coherence: two tessellated spheres of
//! ~20, 200 and 2000 vertices, turning against each other by 1.5° per step (a full
//! turn in 240 steps, so the sequence repeats seamlessly). Per step, in the same run:
//! (a) `closest_features` warm started from the previous step's pair, (b) the same
//! cold, (c) our GJK (`gjk::closest_points`) on the `ConvexPolyhedron`s as support
//! maps, (d) parry3d-f64's `query::distance` on its `ConvexPolyhedron`s built from the
//! same points. Ends with one line per size: median µs per step of each, and the mean
//! number of walk steps warm and cold.
use ccd_guard::math::{Isometry3, Point3, Real, Translation3, UnitQuaternion, Vector3};
use ccd_guard::query::closest_features::{ConvexPolyhedron, FeaturePair, closest_features};
use ccd_guard::query::gjk;
use criterion::{Criterion, criterion_group, criterion_main};
use parry3d_f64::math::{Pose, Rotation, Vector as PVector};
use parry3d_f64::shape::ConvexPolyhedron as ParryPolyhedron;
use std::f64::consts::PI;
use std::hint::black_box;
use std::time::{Duration, Instant};

const SIZES: [usize; 3] = [20, 200, 2000];
const STEPS: usize = 240;
const DEGREES_PER_STEP: Real = 360.0 / STEPS as Real;

/// Points spread evenly over a sphere (Fibonacci spiral).
fn sphere_points(n: usize, radius: Real) -> Vec<Point3> {
    let golden = PI * (3.0 - 5f64.sqrt());
    (0..n)
        .map(|i| {
            let z = 1.0 - 2.0 * (i as Real + 0.5) / n as Real;
            let r = (1.0 - z * z).sqrt();
            let phi = golden * i as Real;
            Point3::new(r * phi.cos(), r * phi.sin(), z) * radius
        })
        .collect()
}

struct Scene {
    a: ConvexPolyhedron,
    b: ConvexPolyhedron,
    pa: ParryPolyhedron,
    pb: ParryPolyhedron,
    poses: Vec<(Isometry3, Isometry3)>,
    parry_poses: Vec<(Pose, Pose)>,
}

fn to_parry_pose(p: &Isometry3) -> Pose {
    let q = p.rotation.quaternion();
    let t = p.translation.vector;
    Pose::from_parts(PVector::new(t.x, t.y, t.z), Rotation::from_xyzw(q.i, q.j, q.k, q.w))
}

fn scene(n: usize) -> Scene {
    let (points_a, points_b) = (sphere_points(n, 0.5), sphere_points(n, 0.4));
    let parry = |p: &[Point3]| {
        let v: Vec<PVector> = p.iter().map(|p| PVector::new(p.x, p.y, p.z)).collect();
        ParryPolyhedron::from_convex_hull(&v).expect("parry hull")
    };
    let (axis_a, axis_b) = (Vector3::new(0.3, 1.0, 0.2).normalize(), Vector3::new(-0.5, 0.1, 1.0).normalize());
    let poses: Vec<(Isometry3, Isometry3)> = (0..STEPS)
        .map(|i| {
            let angle = (i as Real * DEGREES_PER_STEP).to_radians();
            let pa = Isometry3::from_parts(Translation3::identity(), UnitQuaternion::from_scaled_axis(axis_a * angle));
            let pb = Isometry3::from_parts(Translation3::new(0.95, 0.1, 0.0), UnitQuaternion::from_scaled_axis(axis_b * angle));
            (pa, pb)
        })
        .collect();
    let parry_poses = poses.iter().map(|(a, b)| (to_parry_pose(a), to_parry_pose(b))).collect();
    Scene {
        a: ConvexPolyhedron::from_points(&points_a).expect("hull"),
        b: ConvexPolyhedron::from_points(&points_b).expect("hull"),
        pa: parry(&points_a),
        pb: parry(&points_b),
        poses,
        parry_poses,
    }
}

/// The four methods on step `i` of the sequence; `last` is the warm start.
fn warm(s: &Scene, i: usize, last: &mut Option<FeaturePair>) -> (Real, usize) {
    let (pa, pb) = &s.poses[i];
    let r = closest_features(&s.a, pa, &s.b, pb, *last);
    *last = Some(r.features);
    (r.distance, r.steps)
}

fn cold(s: &Scene, i: usize) -> (Real, usize) {
    let (pa, pb) = &s.poses[i];
    let r = closest_features(&s.a, pa, &s.b, pb, None);
    (r.distance, r.steps)
}

fn ours_gjk(s: &Scene, i: usize) -> Real {
    let (pa, pb) = &s.poses[i];
    gjk::closest_points(&s.a, pa, &s.b, pb).distance
}

fn parry_distance(s: &Scene, i: usize) -> Real {
    let (pa, pb) = &s.parry_poses[i];
    parry3d_f64::query::distance(pa, &s.pa, pb, &s.pb).expect("supported").distance
}

fn bench(c: &mut Criterion) {
    let scenes: Vec<Scene> = SIZES.iter().map(|&n| scene(n)).collect();
    for (n, s) in SIZES.iter().zip(&scenes) {
        // The four agree on every step before anything is timed.
        let mut last = None;
        for i in 0..STEPS {
            let (w, _) = warm(s, i, &mut last);
            let (k, _) = cold(s, i);
            let (g, p) = (ours_gjk(s, i), parry_distance(s, i));
            assert!((w - g).abs() < 1e-9 && (k - g).abs() < 1e-9 && (p - g).abs() < 1e-7, "{n}: step {i}: {w} {k} {g} {p}");
        }
        let mut group = c.benchmark_group(format!("sphere_{}_vertices", s.a.vertex_count()));
        let (mut i, mut last) = (0, None);
        group.bench_function("lin_canny_warm", |b| {
            b.iter(|| {
                i = (i + 1) % STEPS;
                black_box(warm(s, i, &mut last))
            })
        });
        group.bench_function("lin_canny_cold", |b| {
            b.iter(|| {
                i = (i + 1) % STEPS;
                black_box(cold(s, i))
            })
        });
        group.bench_function("gjk_ours", |b| {
            b.iter(|| {
                i = (i + 1) % STEPS;
                black_box(ours_gjk(s, i))
            })
        });
        group.bench_function("parry_distance", |b| {
            b.iter(|| {
                i = (i + 1) % STEPS;
                black_box(parry_distance(s, i))
            })
        });
        group.finish();
    }
    summary(&scenes);
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Median µs per step of each method over a few laps of the sequence, timed step by
/// step (interleaved, so machine noise hits all four alike).
fn summary(scenes: &[Scene]) {
    const LAPS: usize = 5;
    println!("\nclosest features under coherence ({DEGREES_PER_STEP}° per step), median µs per step:");
    for s in scenes {
        let mut t = [Vec::new(), Vec::new(), Vec::new(), Vec::new()];
        let (mut warm_steps, mut cold_steps) = (0, 0);
        let mut last = None;
        for lap in 0..LAPS {
            for i in 0..STEPS {
                let start = Instant::now();
                let (_, ws) = black_box(warm(s, i, &mut last));
                t[0].push(start.elapsed().as_secs_f64());
                let start = Instant::now();
                let (_, cs) = black_box(cold(s, i));
                t[1].push(start.elapsed().as_secs_f64());
                let start = Instant::now();
                black_box(ours_gjk(s, i));
                t[2].push(start.elapsed().as_secs_f64());
                let start = Instant::now();
                black_box(parry_distance(s, i));
                t[3].push(start.elapsed().as_secs_f64());
                if lap > 0 {
                    warm_steps += ws;
                    cold_steps += cs;
                }
            }
        }
        let [w, k, g, p] = t.map(|v| 1e6 * median(v));
        let laps = ((LAPS - 1) * STEPS) as f64;
        println!(
            "  {:>4} vertices ({:>4} faces): warm {w:7.2}  cold {k:7.2}  gjk {g:7.2}  parry {p:7.2}   (walk steps: warm {:.2}, cold {:.1})",
            s.a.vertex_count(),
            s.a.face_count(),
            warm_steps as f64 / laps,
            cold_steps as f64 / laps
        );
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(2));
    targets = bench
}
criterion_main!(benches);
