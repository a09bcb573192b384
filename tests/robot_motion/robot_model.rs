//! Robot model: URDF joints and geometry, forward kinematics by hand, mesh formats,
//! package resolution order, SRDF.
use ccd_guard::math::{Isometry3, Point3, Vector3};
use ccd_guard::robot::resources::ResourceResolver;
use ccd_guard::robot::{JointKind, srdf, urdf};
use ccd_guard::shape::Shape;
use std::fs;
use std::path::Path;

const ARM: &str = r#"<robot name="arm">
  <link name="base"><collision><geometry><box size="0.2 0.2 0.1"/></geometry></collision></link>
  <link name="upper">
    <collision><origin xyz="0 0 0.25"/><geometry><cylinder radius="0.05" length="0.5"/></geometry></collision>
    <collision><origin xyz="0 0 0.5"/><geometry><sphere radius="0.06"/></geometry></collision>
  </link>
  <link name="slider"><collision><geometry><capsule radius="0.02" length="0.1"/></geometry></collision></link>
  <link name="finger_a"/>
  <link name="finger_b"/>
  <link name="wheel"/>
  <link name="tool"/>
  <joint name="shoulder" type="revolute"><parent link="base"/><child link="upper"/>
    <origin xyz="0 0 0.1"/><axis xyz="0 1 0"/><limit lower="-1" upper="2" effort="1" velocity="1"/></joint>
  <joint name="slide" type="prismatic"><parent link="upper"/><child link="slider"/>
    <origin xyz="0 0 0.5" rpy="0 0 1.5707963267948966"/><axis xyz="1 0 0"/><limit lower="0.1" upper="0.3" effort="1" velocity="1"/></joint>
  <joint name="grip" type="prismatic"><parent link="slider"/><child link="finger_a"/>
    <axis xyz="0 1 0"/><limit lower="0" upper="0.04" effort="1" velocity="1"/></joint>
  <joint name="grip_mimic" type="prismatic"><parent link="slider"/><child link="finger_b"/>
    <axis xyz="0 1 0"/><limit lower="-0.04" upper="0" effort="1" velocity="1"/><mimic joint="grip" multiplier="-1" offset="0.001"/></joint>
  <joint name="spin" type="continuous"><parent link="slider"/><child link="wheel"/><axis xyz="0 0 2"/></joint>
  <joint name="fixed_tool" type="fixed"><parent link="wheel"/><child link="tool"/><origin xyz="0.1 0 0"/></joint>
</robot>"#;

fn close(a: &Isometry3, b: &Isometry3) -> bool {
    (a.translation.vector - b.translation.vector).norm() < 1e-12 && a.rotation.angle_to(&b.rotation) < 1e-12
}

#[test]
fn joints_variables_and_forward_kinematics() {
    let robot = urdf::parse_urdf(ARM, Path::new("arm.urdf"), &ResourceResolver::default()).unwrap();
    let names: Vec<&str> = robot.variable_names().collect();
    assert_eq!(names, ["shoulder", "slide", "grip", "spin"]);
    assert_eq!(robot.joints[robot.joint_named("spin").unwrap()].kind, JointKind::Continuous);
    // 0 clamped into the limits: slide's lower limit is 0.1.
    assert_eq!(robot.default_positions(), vec![0.0, 0.1, 0.0, 0.0]);
    let upper = robot.link_named("upper").unwrap();
    assert_eq!(robot.links[upper].collision.len(), 2);
    assert!(matches!(robot.links[robot.link_named("slider").unwrap()].collision[0].shape, Shape::Capsule(_)));

    let q = [0.3, 0.2, 0.01, 0.7];
    let poses = robot.link_poses(&q);
    // upper: rotate 0.3 about y at (0, 0, 0.1).
    let upper_pose = Isometry3::new(Vector3::new(0.0, 0.0, 0.1), Vector3::y() * 0.3);
    assert!(close(&poses[upper], &upper_pose));
    // slider: 0.5 up the upper link, turned 90 deg about z, then 0.2 along its x.
    let slider_pose =
        upper_pose * Isometry3::new(Vector3::new(0.0, 0.0, 0.5), Vector3::z() * std::f64::consts::FRAC_PI_2) * Isometry3::translation(0.2, 0.0, 0.0);
    assert!(close(&poses[robot.link_named("slider").unwrap()], &slider_pose));
    // mimic: finger_b at -1 * 0.01 + 0.001 along y.
    let fb = slider_pose * Isometry3::translation(0.0, -0.009, 0.0);
    assert!(close(&poses[robot.link_named("finger_b").unwrap()], &fb));
    // continuous joint axis (0 0 2) is normalised; the fixed tool follows.
    let tool = slider_pose * Isometry3::new(Vector3::zeros(), Vector3::z() * 0.7) * Isometry3::translation(0.1, 0.0, 0.0);
    assert!(close(&poses[robot.link_named("tool").unwrap()], &tool));
    let p = poses[robot.link_named("tool").unwrap()] * Point3::origin();
    assert!(p.coords.iter().all(|v| v.is_finite()));
}

const CUBE_OBJ: &str = "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n\
f 1 3 2\nf 1 4 3\nf 5 6 7\nf 5 7 8\nf 1 2 6\nf 1 6 5\nf 2 3 7\nf 2 7 6\nf 3 4 8\nf 3 8 7\nf 4 1 5\nf 4 5 8\n";

const TRI_STL: &str = "solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid t\n";

const TRI_DAE: &str = r##"<?xml version="1.0"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
 <library_geometries><geometry id="g"><mesh>
  <source id="p"><float_array id="pa" count="9">0 0 0 2 0 0 0 2 0</float_array>
   <technique_common><accessor source="#pa" count="3" stride="3"><param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/></accessor></technique_common></source>
  <vertices id="v"><input semantic="POSITION" source="#p"/></vertices>
  <triangles count="1"><input semantic="VERTEX" source="#v" offset="0"/><p>0 1 2</p></triangles>
 </mesh></geometry></library_geometries>
 <library_visual_scenes><visual_scene id="s"><node><instance_geometry url="#g"/></node></visual_scene></library_visual_scenes>
 <scene><instance_visual_scene url="#s"/></scene>
</COLLADA>"##;

fn mesh_robot(dir: &Path, filename: &str, scale: &str) -> String {
    format!(r#"<robot name="m"><link name="a"><collision><geometry><mesh filename="{filename}" scale="{scale}"/></geometry></collision></link></robot>"#)
        .replace("{dir}", &dir.display().to_string())
}

#[test]
fn meshes_in_three_formats_with_scale() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir_all(dir.path().join("meshes")).unwrap();
    fs::write(dir.path().join("meshes/cube.obj"), CUBE_OBJ).unwrap();
    fs::write(dir.path().join("meshes/tri.stl"), TRI_STL).unwrap();
    fs::write(dir.path().join("meshes/tri.dae"), TRI_DAE).unwrap();
    let urdf_path = dir.path().join("robot.urdf");
    let resolver = ResourceResolver::default();
    let load = |file: &str, scale: &str| {
        let robot = urdf::parse_urdf(&mesh_robot(dir.path(), file, scale), &urdf_path, &resolver).unwrap();
        match &robot.links[0].collision[0].shape {
            Shape::TriMesh(m) => m.clone(),
            other => panic!("expected a mesh, got {}", other.kind()),
        }
    };
    let cube = load("meshes/cube.obj", "2 3 4");
    assert_eq!(cube.triangle_indices().len(), 12);
    assert!(cube.is_closed());
    assert_eq!(cube.local_aabb().maxs, Point3::new(2.0, 3.0, 4.0));
    assert!(cube.contains_point(&Point3::new(1.0, 1.5, 2.0)));
    assert!(!cube.contains_point(&Point3::new(2.5, 1.5, 2.0)));
    let stl = load(&format!("file://{}/meshes/tri.stl", dir.path().display()), "1 1 1");
    assert_eq!(stl.triangle_indices().len(), 1);
    assert!(!stl.is_closed());
    let dae = load("meshes/tri.dae", "0.5 0.5 0.5");
    assert_eq!(dae.triangle_indices().len(), 1);
    assert!((dae.local_aabb().maxs.x - 1.0).abs() < 1e-12);
}

#[test]
fn package_uris_resolve_in_the_contract_order() {
    let root = tempfile::tempdir().unwrap();
    let flag_dir = root.path().join("flag/pkg");
    let ament = root.path().join("ament");
    let ros = root.path().join("ros");
    for d in [flag_dir.clone(), ament.join("share/pkg"), ros.join("pkg"), ros.join("other")] {
        fs::create_dir_all(&d).unwrap();
    }
    let referrer = Path::new("/somewhere/robot.urdf");
    let mut resolver = ResourceResolver {
        package_dirs: vec![("pkg".into(), flag_dir.clone())],
        ament_prefix_path: vec![root.path().join("missing"), ament.clone()],
        ros_package_path: vec![ros.clone()],
        embedded: None,
    };
    assert_eq!(resolver.resolve("package://pkg/m/a.stl", referrer).unwrap(), flag_dir.join("m/a.stl"));
    resolver.package_dirs.clear();
    assert_eq!(resolver.resolve("package://pkg/m/a.stl", referrer).unwrap(), ament.join("share/pkg/m/a.stl"));
    resolver.ament_prefix_path.clear();
    assert_eq!(resolver.resolve("package://pkg/m/a.stl", referrer).unwrap(), ros.join("pkg/m/a.stl"));
    assert_eq!(resolver.resolve("package://other/x.stl", referrer).unwrap(), ros.join("other/x.stl"));
    let err = resolver.resolve("package://nowhere/x.stl", referrer).unwrap_err().to_string();
    assert!(err.contains("nowhere"), "{err}");
    assert_eq!(resolver.resolve("meshes/a.stl", referrer).unwrap(), Path::new("/somewhere/meshes/a.stl"));
    assert_eq!(resolver.resolve("file:///abs/a.stl", referrer).unwrap(), Path::new("/abs/a.stl"));
    assert_eq!(resolver.resolve("file://rel/a.stl", referrer).unwrap(), Path::new("/somewhere/rel/a.stl"));
}

#[test]
fn srdf_disabled_pairs_and_errors() {
    let text = r#"<robot name="arm"><group name="g"/>
      <disable_collisions link1="base" link2="upper" reason="Adjacent"/>
      <disable_collisions link1="upper" link2="tool" reason="Never"/></robot>"#;
    let pairs = srdf::parse_disabled_pairs(text, Path::new("arm.srdf")).unwrap();
    assert_eq!(pairs.len(), 2);
    assert_eq!((pairs[1].link1.as_str(), pairs[1].link2.as_str()), ("upper", "tool"));
    let err = srdf::parse_disabled_pairs("<robot>\n<disable_collisions link1=\"a\"/></robot>", Path::new("x.srdf")).unwrap_err();
    assert_eq!(err.to_string(), "x.srdf: line 2: <disable_collisions> lacks the attribute 'link2'");
    assert!(srdf::parse_disabled_pairs("<robot", Path::new("x.srdf")).unwrap_err().to_string().starts_with("x.srdf: malformed SRDF"));
}

#[test]
fn default_exceptions_join_links_through_geometry_less_links() {
    let robot = urdf::parse_urdf(ARM, Path::new("arm.urdf"), &ResourceResolver::default()).unwrap();
    let name = |i: usize| robot.links[i].name.as_str();
    let mut pairs: Vec<(&str, &str)> =
        robot.adjacent_link_pairs().into_iter().map(|(a, b)| if name(a) < name(b) { (name(a), name(b)) } else { (name(b), name(a)) }).collect();
    pairs.sort();
    pairs.dedup();
    // Direct joints, plus slider-tool through the geometry-less wheel (MoveIt's setup
    // assistant does the same).
    assert!(pairs.contains(&("base", "upper")));
    assert!(pairs.contains(&("slider", "tool")));
    assert!(!pairs.contains(&("base", "slider")));
    assert!(!pairs.contains(&("tool", "upper")));
}
