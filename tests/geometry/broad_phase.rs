//! The broad phases (uniform grid of Šinjur §4.2; incremental sort and sweep of
//! Lin 1993 ch. 5; the automatic choice) must return exactly the
//! pairs brute force returns, on random scenes with touching, identical, zero-size,
//! empty and infinite boxes, and over many frames of motion for the reused sweep.
use ccd_guard::bounding_volume::Aabb;
use ccd_guard::math::Point3;
use ccd_guard::partitioning::broad_phase::{BroadPhaseKind, SortAndSweep, UniformGrid, brute_force_pairs, choose_broad_phase, overlapping_pairs};
use proptest::prelude::*;

use crate::common::rng::XorShift64;

const INF: f64 = f64::INFINITY;

fn aabb(mins: [f64; 3], maxs: [f64; 3]) -> Aabb {
    Aabb::new(Point3::from(mins), Point3::from(maxs))
}

/// One box of a random scene. Coordinates are multiples of 0.5 so that exact touching
/// is frequent.
#[derive(Clone, Debug)]
enum Spec {
    Normal { corner: [i32; 3], size: [u32; 3] },
    Big { corner: [i32; 3], size: [u32; 3] },
    Point { corner: [i32; 3] },
    CopyOf(usize),
    Empty { corner: [i32; 3], axis: usize },
    Infinite { corner: [i32; 3], axis: usize, both: bool },
    Nan,
}

fn spec() -> impl Strategy<Value = Spec> {
    let corner = prop::array::uniform3(-12i32..12);
    let size = prop::array::uniform3(0u32..6);
    prop_oneof![
        12 => (corner.clone(), size.clone()).prop_map(|(corner, size)| Spec::Normal { corner, size }),
        2 => (corner.clone(), size).prop_map(|(corner, size)| Spec::Big { corner, size }),
        2 => corner.clone().prop_map(|corner| Spec::Point { corner }),
        3 => (0usize..1000).prop_map(Spec::CopyOf),
        1 => (corner.clone(), 0usize..3).prop_map(|(corner, axis)| Spec::Empty { corner, axis }),
        1 => (corner, 0usize..3, any::<bool>()).prop_map(|(corner, axis, both)| Spec::Infinite { corner, axis, both }),
        1 => Just(Spec::Nan),
    ]
}

fn build(specs: &[Spec]) -> Vec<Aabb> {
    let mut boxes: Vec<Aabb> = Vec::with_capacity(specs.len());
    for s in specs {
        let c = |corner: &[i32; 3]| corner.map(|v| v as f64 * 0.5);
        let b = match s {
            Spec::Normal { corner, size } => {
                let m = c(corner);
                aabb(m, [0, 1, 2].map(|k| m[k] + size[k] as f64 * 0.5))
            }
            Spec::Big { corner, size } => {
                let m = c(corner);
                aabb(m, [0, 1, 2].map(|k| m[k] + size[k] as f64 * 4.0))
            }
            Spec::Point { corner } => aabb(c(corner), c(corner)),
            Spec::CopyOf(i) if !boxes.is_empty() => boxes[i % boxes.len()],
            Spec::CopyOf(_) => aabb([0.0; 3], [1.0; 3]),
            Spec::Empty { corner, axis } => {
                let m = c(corner);
                let mut maxs = m.map(|v| v + 1.0);
                maxs[*axis] = m[*axis] - 0.5;
                aabb(m, maxs)
            }
            Spec::Infinite { corner, axis, both } => {
                let mut m = c(corner);
                let mut maxs = m.map(|v| v + 1.0);
                maxs[*axis] = INF;
                if *both {
                    m[*axis] = -INF;
                }
                aabb(m, maxs)
            }
            Spec::Nan => aabb([f64::NAN, 0.0, 0.0], [1.0, 1.0, 1.0]),
        };
        boxes.push(b);
    }
    boxes
}

/// Moves some boxes by multiples of 0.5 (small moves keep the sweep's lists nearly
/// sorted; large ones exercise long insertion moves).
fn perturb(boxes: &mut [Aabb], moves: &[(usize, [i32; 3])]) {
    if boxes.is_empty() {
        return;
    }
    let n = boxes.len();
    for &(i, d) in moves {
        let b = &mut boxes[i % n];
        for (k, dk) in d.iter().enumerate() {
            b.mins[k] += *dk as f64 * 0.5;
            b.maxs[k] += *dk as f64 * 0.5;
        }
    }
}

fn check_all(boxes: &[Aabb]) -> Result<(), TestCaseError> {
    let expected = brute_force_pairs(boxes);
    for w in expected.windows(2) {
        prop_assert!(w[0] < w[1]);
    }
    prop_assert_eq!(&UniformGrid::new(boxes).pairs(boxes), &expected, "grid");
    prop_assert_eq!(&SortAndSweep::new().pairs(boxes), &expected, "fresh sweep");
    prop_assert_eq!(&overlapping_pairs(boxes), &expected, "overlapping_pairs");
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn all_broad_phases_equal_brute_force(specs in prop::collection::vec(spec(), 0..200)) {
        check_all(&build(&specs))?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 100, ..ProptestConfig::default() })]

    #[test]
    fn reused_sweep_and_fixed_grid_follow_motion(
        specs in prop::collection::vec(spec(), 0..200),
        frames in prop::collection::vec(
            (prop::collection::vec((0usize..1000, prop::array::uniform3(-2i32..=2)), 0..40), 0u8..10, any::<usize>()),
            1..20,
        ),
    ) {
        let mut boxes = build(&specs);
        let mut sweep = SortAndSweep::new();
        // The grid is sized once from the first frame; boxes then leave its bounds.
        let grid = UniformGrid::new(&boxes);
        prop_assert_eq!(sweep.pairs(&boxes), brute_force_pairs(&boxes));
        for (moves, event, at) in &frames {
            perturb(&mut boxes, moves);
            match event {
                // Occasionally the scene changes: a box is added or removed, or one
                // becomes empty.
                0 => boxes.push(aabb([0.0; 3], [1.5, 0.5, 2.0])),
                1 if !boxes.is_empty() => { boxes.remove(at % boxes.len()); }
                2 if !boxes.is_empty() => { let n = boxes.len(); boxes[at % n] = Aabb::empty(); }
                _ => {}
            }
            let expected = brute_force_pairs(&boxes);
            prop_assert_eq!(&sweep.pairs(&boxes), &expected, "reused sweep");
            prop_assert_eq!(&grid.pairs(&boxes), &expected, "fixed grid");
        }
    }
}

#[test]
fn sweep_is_incremental_over_smooth_motion() {
    let mut rng = XorShift64::new(0x1234_5678_9ABC_DEF1);
    let n = 300;
    let mut centers: Vec<[f64; 3]> = (0..n).map(|_| [0, 1, 2].map(|_| rng.f() * 20.0)).collect();
    let velocities: Vec<[f64; 3]> = (0..n).map(|_| [0, 1, 2].map(|_| (rng.f() - 0.5) * 0.2)).collect();
    let halves: Vec<[f64; 3]> = (0..n).map(|_| [0, 1, 2].map(|_| 0.2 + rng.f() * 0.8)).collect();
    let mut sweep = SortAndSweep::new();
    let mut total_pairs = 0;
    for _frame in 0..100 {
        let boxes: Vec<Aabb> = (0..n).map(|i| aabb([0, 1, 2].map(|k| centers[i][k] - halves[i][k]), [0, 1, 2].map(|k| centers[i][k] + halves[i][k]))).collect();
        let expected = brute_force_pairs(&boxes);
        total_pairs += expected.len();
        assert_eq!(sweep.pairs(&boxes), expected);
        for i in 0..n {
            for k in 0..3 {
                centers[i][k] += velocities[i][k];
            }
        }
    }
    assert!(total_pairs > 1000, "scene too sparse: {total_pairs}");
    // Coherent motion never needed a rebuild after the first call.
    assert_eq!(sweep.rebuild_count(), 1);
}

#[test]
fn sweep_survives_teleporting_boxes() {
    let mut rng = XorShift64::new(42);
    let mut sweep = SortAndSweep::new();
    for _ in 0..20 {
        let boxes: Vec<Aabb> = (0..300)
            .map(|_| {
                let c = [0, 1, 2].map(|_| rng.f() * 30.0);
                aabb(c, c.map(|v| v + 1.0 + rng.f()))
            })
            .collect();
        assert_eq!(sweep.pairs(&boxes), brute_force_pairs(&boxes));
    }
}

#[test]
fn extreme_boxes_do_not_crash() {
    let boxes = vec![
        aabb([-INF; 3], [INF; 3]),
        aabb([INF; 3], [INF; 3]),
        aabb([-INF; 3], [-INF; 3]),
        aabb([-f64::MAX; 3], [f64::MAX; 3]),
        aabb([1e300; 3], [f64::MAX; 3]),
        aabb([-1e-300; 3], [1e-300; 3]),
        aabb([0.0; 3], [0.0; 3]),
        aabb([-0.0; 3], [-0.0; 3]),
        Aabb::empty(),
        aabb([0.0, f64::NAN, 0.0], [1.0; 3]),
        aabb([0.0; 3], [1.0, 1.0, f64::NAN]),
        aabb([2.0; 3], [3.0; 3]),
    ];
    let expected = brute_force_pairs(&boxes);
    // The empty box overlaps nothing, not even the everything-box.
    assert!(expected.iter().all(|&(i, j)| i != 8 && j != 8 && i != 9 && j != 9 && i != 10 && j != 10));
    assert!(expected.contains(&(0, 1)) && expected.contains(&(6, 7)) && expected.contains(&(3, 4)));
    assert_eq!(UniformGrid::new(&boxes).pairs(&boxes), expected);
    assert_eq!(SortAndSweep::new().pairs(&boxes), expected);
    assert_eq!(overlapping_pairs(&boxes), expected);
    // A grid sized from huge finite boxes only.
    let huge = vec![aabb([-f64::MAX; 3], [-1e300; 3]), aabb([1e300; 3], [f64::MAX; 3]), aabb([-1.0; 3], [1.0; 3])];
    assert_eq!(UniformGrid::new(&huge).pairs(&huge), brute_force_pairs(&huge));
}

#[test]
fn grid_cells_are_bounded() {
    // Tiny boxes spread far apart would ask for about 1e12 cells per axis.
    let mut boxes: Vec<Aabb> = (0..100).map(|i| aabb([i as f64 * 1e6; 3], [i as f64 * 1e6 + 1e-6; 3])).collect();
    boxes.push(aabb([5e5; 3], [5e5 + 1e-6; 3]));
    let grid = UniformGrid::new(&boxes);
    assert!(grid.cell_counts().iter().all(|&c| (1..=1024).contains(&c)));
    assert_eq!(grid.pairs(&boxes), brute_force_pairs(&boxes));
    // Zero-size scene: one cell.
    let points = vec![aabb([1.0; 3], [1.0; 3]); 5];
    let grid = UniformGrid::new(&points);
    assert_eq!(grid.cell_counts(), [1, 1, 1]);
    assert_eq!(grid.pairs(&points).len(), 10);
    assert_eq!(UniformGrid::new(&[]).pairs(&[]), vec![]);
}

#[test]
fn choice_follows_scene_statistics() {
    let cube = |c: [f64; 3], h: f64| aabb(c.map(|v| v - h), c.map(|v| v + h));
    // Few boxes: sweep.
    let few: Vec<Aabb> = (0..10).map(|i| cube([i as f64, 0.0, 0.0], 0.5)).collect();
    assert_eq!(choose_broad_phase(&few), BroadPhaseKind::SortAndSweep);
    // Many boxes of similar size: grid.
    let mut rng = XorShift64::new(7);
    let similar: Vec<Aabb> = (0..500).map(|_| cube([0, 1, 2].map(|_| rng.f() * 50.0), 0.5 + 0.2 * rng.f())).collect();
    assert_eq!(choose_broad_phase(&similar), BroadPhaseKind::UniformGrid);
    // Many boxes of very unequal sizes: sweep.
    let unequal: Vec<Aabb> = (0..500).map(|i| cube([0, 1, 2].map(|_| rng.f() * 50.0), if i % 10 == 0 { 40.0 } else { 0.1 })).collect();
    assert_eq!(choose_broad_phase(&unequal), BroadPhaseKind::SortAndSweep);
    // An infinite box: sweep.
    let mut with_inf = similar.clone();
    with_inf.push(aabb([-INF, 0.0, 0.0], [INF, 1.0, 1.0]));
    assert_eq!(choose_broad_phase(&with_inf), BroadPhaseKind::SortAndSweep);
    for scene in [&few, &similar, &unequal, &with_inf] {
        assert_eq!(overlapping_pairs(scene), brute_force_pairs(scene));
    }
}
