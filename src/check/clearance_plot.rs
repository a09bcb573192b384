//! `check --plot FILE.svg`: the clearance over time, with the contact events shaded, the
//! waypoints marked and the minimum clearance pointed out.
use super::report::Report;
use crate::clearance::ClearanceSample;
use crate::math::Real;
use plotters::prelude::*;
use std::path::Path;

/// Draws `samples` (the clearance profile) and the report's events into an SVG file.
pub fn plot_clearance(path: &Path, samples: &[ClearanceSample], waypoint_times: &[Real], report: &Report) -> Result<(), String> {
    let fail = |e: &dyn std::fmt::Display| format!("{}: cannot draw the plot: {e}", path.display());
    let (t0, t1) = match (waypoint_times.first(), waypoint_times.last()) {
        (Some(&a), Some(&b)) if b > a => (a, b),
        (Some(&a), _) => (a, a + 1.0),
        _ => (0.0, 1.0),
    };
    let top = samples.iter().map(|s| s.distance).fold(0.0, Real::max).max(1e-3) * 1.1;
    let root = SVGBackend::new(path, (960, 480)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| fail(&e))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(format!("ccd_guard: clearance over time ({})", report.verdict.name()), ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(70)
        .build_cartesian_2d(t0..t1, 0.0..top)
        .map_err(|e| fail(&e))?;
    chart.configure_mesh().x_desc("time from start (s)").y_desc("clearance (m)").draw().map_err(|e| fail(&e))?;
    let shade = RED.mix(0.25);
    for c in &report.contacts {
        let until = c.time_of_separation.unwrap_or(t1);
        let label = format!("contact {} / {}", c.link, c.other);
        chart
            .draw_series(std::iter::once(Rectangle::new([(c.time_of_contact, 0.0), (until.max(c.time_of_contact), top)], shade.filled())))
            .map_err(|e| fail(&e))?
            .label(label)
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 15, y + 5)], shade.filled()));
    }
    let waypoint_style = ShapeStyle::from(&BLACK.mix(0.6)).stroke_width(1);
    chart
        .draw_series(waypoint_times.iter().map(|&t| PathElement::new([(t, 0.0), (t, top)], waypoint_style)))
        .map_err(|e| fail(&e))?
        .label("waypoints")
        .legend(move |(x, y)| PathElement::new([(x + 7, y - 6), (x + 7, y + 6)], waypoint_style));
    chart
        .draw_series(LineSeries::new(samples.iter().map(|s| (s.time, s.distance)), BLUE.stroke_width(2)))
        .map_err(|e| fail(&e))?
        .label("clearance (closest checked pair)")
        .legend(|(x, y)| PathElement::new([(x, y), (x + 15, y)], BLUE.stroke_width(2)));
    if let (Some(c), Some(d)) = (&report.closest_approach, report.min_clearance) {
        let label = format!("min {:.4} m: {} / {} at {:.3} s", d, c.link, c.other, c.time);
        chart
            .draw_series(std::iter::once(Circle::new((c.time, d), 5, GREEN.filled())))
            .map_err(|e| fail(&e))?
            .label(label)
            .legend(|(x, y)| Circle::new((x + 7, y), 5, GREEN.filled()));
    }
    chart.configure_series_labels().background_style(WHITE.mix(0.8)).border_style(BLACK).draw().map_err(|e| fail(&e))?;
    root.present().map_err(|e| fail(&e))
}
