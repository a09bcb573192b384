//! `check --plot FILE.svg`: the clearance over time of the few body pairs that come
//! closest, one line each with a legend (signed: below zero by the depth where they
//! overlap), their contact events shaded in their colours, the waypoints marked along
//! the time axis (every k-th of a long trajectory) and the minimum clearance pointed out.
use super::report::Report;
use crate::clearance::PairProfile;
use crate::collision::CollisionWorld;
use crate::math::Real;
use plotters::prelude::*;
use std::path::{Path, PathBuf};

/// Waypoints marked at most (a long trajectory's every k-th).
const WAYPOINT_MARKS: usize = 100;

/// Why the plot could not be drawn (`message`: the drawing library's reason).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}: cannot draw the plot: {message}", path.display())]
pub struct PlotError {
    pub path: PathBuf,
    pub message: String,
}

/// Draws the pairs' profiles and the report's events into an SVG file.
pub fn plot_clearance(path: &Path, world: &CollisionWorld, profiles: &[PairProfile], waypoint_times: &[Real], report: &Report) -> Result<(), PlotError> {
    let fail = |e: &dyn std::fmt::Display| PlotError { path: path.to_path_buf(), message: e.to_string() };
    let (t0, t1) = match (waypoint_times.first(), waypoint_times.last()) {
        (Some(&a), Some(&b)) if b > a => (a, b),
        (Some(&a), _) => (a, a + 1.0),
        _ => (0.0, 1.0),
    };
    let values = || profiles.iter().flat_map(|p| p.samples.iter().map(|s| s.distance));
    let top = values().fold(0.0, Real::max).max(1e-3) * 1.08;
    let lowest = values().fold(0.0, Real::min);
    let bottom = if lowest < 0.0 { lowest * 1.15 } else { -0.04 * top };
    let root = SVGBackend::new(path, (1000, 520)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| fail(&e))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(format!("ccd_guard: clearance over time ({})", report.verdict.name()), ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(70)
        .build_cartesian_2d(t0..t1, bottom..top)
        .map_err(|e| fail(&e))?;
    chart
        .configure_mesh()
        .x_desc("time from start (s)")
        .y_desc("distance (m); below 0: penetration depth")
        .light_line_style(WHITE.mix(0.0))
        .draw()
        .map_err(|e| fail(&e))?;
    if lowest < 0.0 {
        chart.draw_series(std::iter::once(PathElement::new([(t0, 0.0), (t1, 0.0)], BLACK.stroke_width(1)))).map_err(|e| fail(&e))?;
    }
    let name = |b| world.body_name(b).to_string();
    for (k, profile) in profiles.iter().enumerate() {
        let colour = Palette99::pick(k).to_rgba();
        let (link, other) = (name(profile.link), name(profile.other));
        // Its contact events, shaded in its colour.
        let shade = colour.mix(0.18);
        let spans: Vec<(Real, Real)> = report
            .contacts
            .iter()
            .filter(|c| (c.link == link && c.other == other) || (c.link == other && c.other == link))
            .map(|c| (c.time_of_contact, c.time_of_separation.unwrap_or(t1).max(c.time_of_contact)))
            .collect();
        chart.draw_series(spans.iter().map(|&(a, b)| Rectangle::new([(a, bottom), (b, top)], shade.filled()))).map_err(|e| fail(&e))?;
        let label = format!("{link} / {other}: {} {:.4} m", if profile.least < 0.0 { "depth" } else { "closest" }, profile.least.abs());
        chart
            .draw_series(LineSeries::new(profile.samples.iter().map(|s| (s.time, s.distance)), colour.stroke_width(2)))
            .map_err(|e| fail(&e))?
            .label(label)
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 15, y)], colour.stroke_width(2)));
    }
    // Waypoints: triangles on the time axis, not lines that read as a grid.
    let every = waypoint_times.len().div_ceil(WAYPOINT_MARKS).max(1);
    let label = match every {
        1 => "waypoints".to_string(),
        k => format!("waypoints (every {k}th of {})", waypoint_times.len()),
    };
    let marker = |x: Real| TriangleMarker::new((x, bottom), 5, BLACK.mix(0.7).filled());
    chart
        .draw_series(waypoint_times.iter().step_by(every).map(|&t| marker(t)))
        .map_err(|e| fail(&e))?
        .label(label)
        .legend(move |(x, y)| TriangleMarker::new((x + 7, y), 5, BLACK.mix(0.7).filled()));
    if let (Some(c), Some(d)) = (&report.closest_approach, report.min_clearance) {
        let label = format!("min clearance {:.4} m: {} / {} at {:.3} s", d, c.link, c.other, c.time);
        chart
            .draw_series(std::iter::once(Circle::new((c.time, d), 5, GREEN.filled())))
            .map_err(|e| fail(&e))?
            .label(label)
            .legend(|(x, y)| Circle::new((x + 7, y), 5, GREEN.filled()));
    }
    chart.configure_series_labels().background_style(WHITE.mix(0.85)).border_style(BLACK).draw().map_err(|e| fail(&e))?;
    root.present().map_err(|e| fail(&e))
}
