//! The bottom-up AABB hierarchy (stage 1's dynamic BVH) against brute force.
use ccd_guard::bounding_volume::Aabb;
use ccd_guard::math::Point3;
use ccd_guard::partitioning::{AabbTree, brute_force_pairs};
use proptest::prelude::*;

fn boxes() -> impl Strategy<Value = Vec<Aabb>> {
    prop::collection::vec((prop::array::uniform3(-2.0f64..2.0), prop::array::uniform3(0.0f64..0.8)), 0..60).prop_map(|v| {
        v.into_iter().map(|(c, h)| Aabb::new(Point3::new(c[0] - h[0], c[1] - h[1], c[2] - h[2]), Point3::new(c[0] + h[0], c[1] + h[1], c[2] + h[2]))).collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    #[test]
    fn self_overlaps_equal_brute_force(leaves in boxes()) {
        let mut got = Vec::new();
        AabbTree::build(&leaves).self_overlaps(&mut got);
        let mut got: Vec<(usize, usize)> = got.into_iter().map(|(a, b)| (a as usize, b as usize)).collect();
        got.sort_unstable();
        prop_assert_eq!(got, brute_force_pairs(&leaves));
    }

    #[test]
    fn overlaps_between_two_trees_equal_brute_force(a in boxes(), b in boxes()) {
        let mut got = Vec::new();
        AabbTree::build(&a).overlaps_with(&AabbTree::build(&b), &mut got);
        got.sort_unstable();
        let mut expected = Vec::new();
        for (i, x) in a.iter().enumerate() {
            for (j, y) in b.iter().enumerate() {
                if x.intersects(y) {
                    expected.push((i as u32, j as u32));
                }
            }
        }
        prop_assert_eq!(got, expected);
    }
}
