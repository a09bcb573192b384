//! The report's form at the command line: `--stats` adds its keys after the contract's,
//! in order; a reader's panic on a malformed file is said in one line.
use crate::common::cli::{ccd_guard, run};
use crate::common::demo::demo;

/// The top-level keys of a pretty-printed JSON object, in the order printed.
fn top_level_keys(json: &str) -> Vec<String> {
    json.lines().filter_map(|l| l.strip_prefix("  \"")).filter_map(|l| l.split_once("\":")).map(|(key, _)| key.to_string()).collect()
}

fn check_collide(extra: &[&str]) -> (i32, String, String) {
    let mut command = ccd_guard();
    command.arg("check").arg("--urdf").arg(demo("robot.urdf")).arg("--srdf").arg(demo("robot.srdf"));
    command.arg("--scene").arg(demo("scene.yaml")).arg("--trajectory").arg(demo("traj_collide.yaml")).args(extra);
    run(&mut command)
}

#[test]
fn stats_keep_the_reports_key_order() {
    let (status, plain, _) = check_collide(&[]);
    assert_eq!(status, 1, "{plain}");
    let (status, with_stats, _) = check_collide(&["--stats"]);
    assert_eq!(status, 1, "{with_stats}");
    let contract = [
        "verdict",
        "certified",
        "method",
        "time_of_contact",
        "segment_index",
        "contacts",
        "max_penetration_depth",
        "min_clearance",
        "tolerance",
        "elapsed_ms",
        "error",
    ];
    let plain = top_level_keys(&plain);
    assert_eq!(plain[..contract.len()], contract, "{plain:?}");
    let keys = top_level_keys(&with_stats);
    let mut expected = plain.clone();
    expected.extend(["stats", "certifier_stats"].map(String::from));
    assert_eq!(keys, expected, "--stats reorders or drops keys");
}

#[test]
fn a_panic_in_the_mesh_reader_is_said_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    // An accessor naming a source the file lacks: mesh-loader's COLLADA reader indexes
    // its map by it and panics.
    let dae = r##"<?xml version="1.0" encoding="utf-8"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
  <library_geometries><geometry id="t"><mesh>
    <source id="t-positions">
      <float_array id="t-positions-array" count="12">0 0 0 1 0 0 0 1 0 0 0 1</float_array>
      <technique_common><accessor source="#nothere" count="4" stride="3">
        <param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/>
      </accessor></technique_common>
    </source>
    <vertices id="t-vertices"><input semantic="POSITION" source="#t-positions"/></vertices>
    <triangles count="4"><input semantic="VERTEX" source="#t-vertices" offset="0"/><p>0 1 2 0 1 3 0 2 3 1 2 3</p></triangles>
  </mesh></geometry></library_geometries>
  <library_visual_scenes><visual_scene id="s"><node id="n"><instance_geometry url="#t"/></node></visual_scene></library_visual_scenes>
  <scene><instance_visual_scene url="#s"/></scene>
</COLLADA>
"##;
    std::fs::write(dir.path().join("bad.dae"), dae).unwrap();
    let urdf = r#"<robot name="r"><link name="base"/>
  <link name="arm"><collision><geometry><mesh filename="bad.dae"/></geometry></collision></link>
  <joint name="j" type="revolute"><parent link="base"/><child link="arm"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/></joint></robot>"#;
    std::fs::write(dir.path().join("robot.urdf"), urdf).unwrap();
    let trajectory = "joint_names: [j]\npoints:\n  - {positions: [0.0], time_from_start: 0.0}\n  - {positions: [0.5], time_from_start: 1.0}\n";
    std::fs::write(dir.path().join("trajectory.yaml"), trajectory).unwrap();
    let mut command = ccd_guard();
    command.arg("check").arg("--urdf").arg(dir.path().join("robot.urdf")).arg("--trajectory").arg(dir.path().join("trajectory.yaml"));
    let (status, _, stderr) = run(&mut command);
    assert_eq!(status, 2, "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "one line, no panic message: {stderr}");
    assert!(stderr.contains("bad.dae") && stderr.contains("cannot parse mesh"), "{stderr}");
}
