//! How close does the motion come, and how deep does it go? The minimum distance between
//! checked pairs over the whole trajectory (`min_clearance` in the report), the clearance
//! over time for the plot, the clearance to the world and the self-clearance apart, and
//! the largest penetration depth within a contact event. Distances are exact per
//! configuration (`query::distance`); over time, a
//! priority queue of (pair, time cell) ordered by a proven lower bound of the pair's
//! distance over the cell spends work only where the clearance is small (Lin 1993
//! ch. 5, with the time-to-collision bound replaced by the pose enclosures'
//! motion bound, which holds for any joint motion).
//!
//! Soundness: the lower bounds reported (the motion's and each pair's) hold over the
//! whole motion: each cell's bound is a proven lower bound of its pair's distance over
//! the cell (outward-rounded enclosures, GJK's rounded-down gaps, less an allowance for
//! the rounding of the distances), and the minimum reported is a distance attained,
//! within the tolerance above the true minimum.
mod event_depth;
mod min_clearance;
mod profile;
mod split;
mod world_distance;

pub use event_depth::{bodies_depth, body_named, contact_normal, max_depth_over};
pub use min_clearance::{CellBounds, ClearanceOptions, ClearanceSearch, MinClearance, min_clearance, min_clearances_together};
pub use profile::{ClearanceSample, PairProfile, clearance_profile, pair_profiles};
pub use split::{SplitClearance, split_clearance};
pub use world_distance::{PairDistance, checked_element_pairs, pair_distance, world_distance};
