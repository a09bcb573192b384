//! Prints the pipeline's statistics on the embedded demo trajectories.
use ccd_guard::ccd::PipelineOptions;
use ccd_guard::check::pipeline_method::check_pipeline;
use ccd_guard::demo::{CASES, case_input};

fn main() {
    for case in &CASES {
        let input = case_input(case).expect("demo loads");
        let (report, stats) = check_pipeline(&input, &PipelineOptions::default(), 0.001);
        println!("{}: {} in {:.1} ms\n{}", case.name, report.verdict.name(), report.elapsed_ms, stats.to_text());
    }
}
