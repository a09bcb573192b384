use super::*;
use crate::check::Method;

fn store() -> ParameterStore {
    ParameterStore::new(&NodeParameters { gate_controllers: vec!["arm_controller".into()], ..Default::default() })
}

fn param(name: &str, value: ParameterValue) -> msg::Parameter {
    msg::Parameter { name: name.into(), value }
}

fn set(store: &mut ParameterStore, parameters: Vec<msg::Parameter>) -> (Vec<SetParametersResult>, Option<Changed>) {
    match store.answer(ParameterRequest::Set(msg::SetParametersRequest { parameters })) {
        (ParameterResponse::Set(r), changed) => (r.results, changed),
        other => panic!("{other:?}"),
    }
}

#[test]
fn every_declared_parameter_has_its_declared_type() {
    let mut s = store();
    let names: Vec<String> = DECLARED.iter().map(|d| d.name.to_string()).collect();
    let (ParameterResponse::GetTypes(types), None) = s.answer(ParameterRequest::GetTypes(msg::GetParameterTypesRequest { names: names.clone() })) else {
        panic!()
    };
    assert_eq!(types.types, DECLARED.iter().map(|d| d.kind).collect::<Vec<_>>());
    let get = |s: &mut ParameterStore, names: &[&str]| match s
        .answer(ParameterRequest::Get(msg::GetParametersRequest { names: names.iter().map(|n| n.to_string()).collect() }))
    {
        (ParameterResponse::Get(got), None) => got.values,
        other => panic!("{other:?}"),
    };
    let got = get(&mut s, &["method", "queue_size", "gate_controllers"]);
    assert_eq!(got[0].string_value, "certified");
    assert_eq!(got[1].integer_value, 4);
    assert_eq!(got[2].string_array_value, vec!["arm_controller".to_string()]);
    // As rclcpp: a name the node does not declare makes the answer empty.
    assert!(get(&mut s, &["method", "nope"]).is_empty());
    let (ParameterResponse::List(list), None) = s.answer(ParameterRequest::List(msg::ListParametersRequest::default())) else { panic!() };
    assert_eq!(list.result.names.len(), DECLARED.len());
}

#[test]
fn descriptors_say_type_range_and_read_only() {
    let mut s = store();
    let (ParameterResponse::Describe(d), None) = s
        .answer(ParameterRequest::Describe(msg::DescribeParametersRequest { names: vec!["queue_size".into(), "gate_controllers".into(), "tolerance".into()] }))
    else {
        panic!()
    };
    assert_eq!(d.descriptors[0].kind, t::INTEGER);
    assert_eq!(d.descriptors[0].integer_range, vec![msg::IntegerRange { from_value: 1, to_value: 1024, step: 1 }]);
    assert!(d.descriptors[1].read_only && !d.descriptors[2].read_only);
    assert_eq!(d.descriptors[2].additional_constraints, "> 0");
}

#[test]
fn a_good_value_takes_effect_and_is_reported_once() {
    let mut s = store();
    let first_only = !NodeParameters::default().guard.check.first_only;
    let (results, changed) =
        set(&mut s, vec![param("tolerance", double(0.002)), param("method", string("pipeline".into())), param("first_only", boolean(first_only))]);
    assert!(results.iter().all(|r| r.successful), "{results:?}");
    let changed = changed.expect("a change");
    assert_eq!(changed.parameters.guard.check.tolerance, 0.002);
    assert_eq!(changed.parameters.guard.check.method, Method::Pipeline);
    assert_eq!(changed.parameters.guard.check.first_only, first_only);
    assert_eq!(changed.changed.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(), ["tolerance", "method", "first_only"]);
    // The same values again change nothing.
    let (results, changed) = set(&mut s, vec![param("tolerance", double(0.002))]);
    assert!(results[0].successful && changed.is_none());
    // The transport takes the change sets once: one per request that changed something.
    let (parameters, events) = s.take_changes().expect("changes");
    assert_eq!(parameters.guard.check.tolerance, 0.002);
    assert_eq!(events.len(), 1);
    assert!(s.take_changes().is_none());
}

#[test]
fn wrong_types_bad_values_read_only_and_unknown_names_are_refused_with_the_reason() {
    let mut s = store();
    let before = s.parameters().clone();
    let cases = [
        (param("tolerance", string("fine".into())), "is of type double, not string"),
        (param("tolerance", double(-1.0)), "must be a positive number"),
        (param("queue_size", ParameterValue { kind: t::INTEGER, integer_value: 0, ..Default::default() }), "from 1 to 1024"),
        (param("method", string("guess".into())), "certified, pipeline or sampled"),
        (param("gate_controllers", strings(vec![])), "read-only"),
        (param("scene_file", string("/nonexistent/scene.yaml".into())), "/nonexistent/scene.yaml is not a file"),
        (param("no_such", boolean(true)), "not declared"),
        (param("tolerance", ParameterValue::default()), "cannot be undeclared"),
    ];
    for (p, reason) in cases {
        let (results, changed) = set(&mut s, vec![p.clone()]);
        assert!(!results[0].successful && results[0].reason.contains(reason), "{p:?}: {results:?}");
        assert!(changed.is_none());
    }
    assert_eq!(s.parameters(), &before);
}

#[test]
fn set_atomically_is_all_or_none() {
    let mut s = store();
    let request = msg::SetParametersAtomicallyRequest { parameters: vec![param("tolerance", double(0.01)), param("queue_size", string("x".into()))] };
    let (ParameterResponse::SetAtomically(r), None) = s.answer(ParameterRequest::SetAtomically(request)) else { panic!() };
    assert!(!r.result.successful);
    assert_eq!(s.parameters().guard.check.tolerance, NodeParameters::default().guard.check.tolerance);
    // set_parameters takes each on its own: the good one holds.
    let (results, changed) = set(&mut s, vec![param("tolerance", double(0.01)), param("queue_size", string("x".into()))]);
    assert!(results[0].successful && !results[1].successful);
    assert_eq!(changed.unwrap().parameters.guard.check.tolerance, 0.01);
}
