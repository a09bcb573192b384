//! Penetration depth: EPA (`penetration_depth`) against the exact Minkowski-facet MTD
//! (`polytope_penetration_exact`) on overlapping polytope pairs of 8, 32 and 128
//! vertices, and EPA on primitive pairs (box-box, cylinder-capsule, cylinder-cylinder).
//! Small samples: the whole run stays within a minute or two on a shared machine.
use ccd_guard::math::{Isometry3, Point3, Vector3};
use ccd_guard::query::penetration::{VertexCloud, directional_depth, penetration_depth, polytope_penetration_exact};
use ccd_guard::shape::{Capsule, Cuboid, Cylinder, SupportMap};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;

/// `n` points on a sphere of radius 0.5 (a Fibonacci spiral, so all are vertices).
fn sphere_points(n: usize) -> Vec<Point3> {
    let golden = std::f64::consts::PI * (3.0 - 5f64.sqrt());
    (0..n)
        .map(|k| {
            let z = 1.0 - 2.0 * (k as f64 + 0.5) / n as f64;
            let r = (1.0 - z * z).sqrt();
            Point3::new(r * (golden * k as f64).cos(), r * (golden * k as f64).sin(), z) * 0.5
        })
        .collect()
}

/// A few overlapping poses of B relative to A (different contact features).
fn poses() -> Vec<(Isometry3, Isometry3)> {
    (0..8)
        .map(|k| {
            let t = k as f64;
            let pa = Isometry3::new(Vector3::zeros(), Vector3::new(0.1 * t, 0.2, -0.3));
            let pb = Isometry3::new(Vector3::new(0.6 * (0.7 * t).cos(), 0.6 * (0.7 * t).sin(), 0.2 * (t - 3.5) / 3.5), Vector3::new(0.3, -0.2 * t, 0.5));
            (pa, pb)
        })
        .collect()
}

fn polytopes(c: &mut Criterion) {
    let mut group = c.benchmark_group("polytope_penetration");
    let poses = poses();
    for n in [8, 32, 128] {
        let (a, b) = (sphere_points(n), sphere_points(n));
        let (ca, cb) = (VertexCloud(&a), VertexCloud(&b));
        for (pa, pb) in &poses {
            let (e, x) = (penetration_depth(&ca, pa, &cb, pb), polytope_penetration_exact(&a, pa, &b, pb));
            let (e, x) = (e.expect("overlapping"), x.expect("overlapping"));
            assert!((e.depth - x.depth).abs() < 1e-9, "{n}: EPA {} exact {}", e.depth, x.depth);
        }
        group.bench_with_input(BenchmarkId::new("epa", n), &n, |bench, _| {
            bench.iter(|| {
                for (pa, pb) in &poses {
                    black_box(penetration_depth(&ca, black_box(pa), &cb, black_box(pb)));
                }
            })
        });
        group.bench_with_input(BenchmarkId::new("exact_facets", n), &n, |bench, _| {
            bench.iter(|| {
                for (pa, pb) in &poses {
                    black_box(polytope_penetration_exact(&a, black_box(pa), &b, black_box(pb)));
                }
            })
        });
    }
    group.finish();
}

fn primitives(c: &mut Criterion) {
    let mut group = c.benchmark_group("primitive_penetration");
    let poses = poses();
    let cuboid = Cuboid { half_extents: Vector3::new(0.5, 0.3, 0.4) };
    let cylinder = Cylinder { half_height: 0.4, radius: 0.3 };
    let capsule = Capsule { half_height: 0.3, radius: 0.2 };
    let pairs: [(&str, &dyn SupportMap, &dyn SupportMap); 3] =
        [("box-box", &cuboid, &cuboid), ("cylinder-capsule", &cylinder, &capsule), ("cylinder-cylinder", &cylinder, &cylinder)];
    for (name, a, b) in pairs {
        let overlapping: Vec<_> = poses.iter().filter(|(pa, pb)| penetration_depth(a, pa, b, pb).is_some()).copied().collect();
        assert!(!overlapping.is_empty(), "{name}");
        group.bench_function(BenchmarkId::new("epa", format!("{name} ({} poses)", overlapping.len())), |bench| {
            bench.iter(|| {
                for (pa, pb) in &overlapping {
                    black_box(penetration_depth(a, black_box(pa), b, black_box(pb)));
                }
            })
        });
    }
    let d = Vector3::new(0.3, -0.5, 0.8).normalize();
    group.bench_function("directional cylinder-capsule (8 poses)", |bench| {
        bench.iter(|| {
            for (pa, pb) in &poses {
                black_box(directional_depth(&cylinder, black_box(pa), &capsule, black_box(pb), &d));
            }
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).warm_up_time(Duration::from_millis(300)).measurement_time(Duration::from_secs(2));
    targets = polytopes, primitives
}
criterion_main!(benches);
