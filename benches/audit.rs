//! `cargo bench --bench audit`: `audit_bags` on a generated rosbag2 bag (MCAP) of 100
//! MoveIt-like Panda plans in a changing 20-object scene (`benches/support/panda_plans_bag.rs`;
//! needs `.venv`: `bash scripts/setup_python.sh`), with one and two checking threads. The
//! time includes loading the Panda (once per audit, as the command does). Plans per second
//! are criterion's "thrpt". The 1,000-plan comparison with one `check` per plan, and memory
//! on a 2 GB octomap bag, are `scripts/bench_audit.sh`.
#[path = "support/panda_plans_bag.rs"]
mod panda_plans_bag;

use ccd_guard::bag::audit::{AuditSettings, audit_bags};
use ccd_guard::moveit::guard::GuardSettings;
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use panda_plans_bag::{BagSpec, panda_files, write_bag};

fn audit(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let bag = dir.path().join("plans_100");
    let stats = write_bag(&bag, &BagSpec { plans: 100, ..BagSpec::default() }).expect("the bag is written");
    let files = panda_files();
    let guard = GuardSettings {
        urdf_file: Some(files.urdf.to_string_lossy().into_owned()),
        srdf_file: Some(files.srdf.to_string_lossy().into_owned()),
        package_dirs: vec![("example-robot-data".into(), files.prefix.join("share/example-robot-data"))],
        check_current_state: false,
        publish_markers: false,
        ..GuardSettings::default()
    };
    let bags = [bag.clone()];
    let mut group = c.benchmark_group("audit");
    group.sample_size(10).measurement_time(std::time::Duration::from_secs(10));
    group.throughput(Throughput::Elements(stats.plans as u64));
    for jobs in [1, 2] {
        let settings = AuditSettings { guard: guard.clone(), scene: None, jobs };
        group.bench_with_input(BenchmarkId::new("plans_100", format!("jobs_{jobs}")), &settings, |b, settings| {
            b.iter(|| {
                let mut plans = 0;
                let summary = audit_bags(&bags, settings, |_| plans += 1).expect("the audit runs");
                assert_eq!((summary.plans, plans), (stats.plans, stats.plans), "every plan audited");
                summary.collision
            })
        });
    }
    group.finish();
}

criterion_group!(benches, audit);
criterion_main!(benches);
