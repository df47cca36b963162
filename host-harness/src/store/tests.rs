use super::*;
use std::collections::HashMap;

fn env_of(vars: &[(&str, &str)]) -> impl Fn(&str) -> Option<OsString> {
    let map: HashMap<String, OsString> = vars
        .iter()
        .map(|(k, v)| (k.to_string(), OsString::from(v)))
        .collect();
    move |k| map.get(k).cloned()
}

#[test]
fn state_dir_resolution_follows_the_originals_order() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    let flag = Path::new("/flag/dir");
    let all = env_of(&[
        ("SKILL_RECOMMENDER_STATE_DIR", "/env/dir"),
        ("HERMES_HOME", "/hermes"),
    ]);
    assert_eq!(
        resolve_state_dir(Some(flag), &all, Some(h)).unwrap(),
        (flag.into(), StateDirSource::Flag)
    );
    assert_eq!(
        resolve_state_dir(None, &all, Some(h)).unwrap(),
        (PathBuf::from("/env/dir"), StateDirSource::EnvStateDir)
    );
    let hermes = env_of(&[
        ("SKILL_RECOMMENDER_STATE_DIR", ""),
        ("HERMES_HOME", "/hermes"),
    ]);
    assert_eq!(
        resolve_state_dir(None, &hermes, Some(h)).unwrap(),
        (
            PathBuf::from("/hermes/state/skill-recommender"),
            StateDirSource::HermesHome
        ),
        "an empty variable counts as unset"
    );
    let none = env_of(&[]);
    assert_eq!(
        resolve_state_dir(None, &none, Some(h)).unwrap(),
        (h.join(".skill-recommender"), StateDirSource::Home)
    );
    fs::create_dir(h.join(".hermes")).unwrap();
    assert_eq!(
        resolve_state_dir(None, &none, Some(h)).unwrap(),
        (
            h.join(".hermes/state/skill-recommender"),
            StateDirSource::HermesDefault
        )
    );
    assert!(
        resolve_state_dir(None, &none, None)
            .unwrap_err()
            .contains("--state-dir")
    );
}

#[test]
fn atomic_write_replaces_whole_file_and_leaves_no_temp_files() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("state.json");
    atomic_write(&path, b"{\"a\": 1}").unwrap();
    atomic_write(&path, b"{\"b\": 2}").unwrap();
    assert_eq!(fs::read_to_string(&path).unwrap(), "{\"b\": 2}");
    let names: Vec<_> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, vec![OsString::from("state.json")]);
}

#[cfg(unix)]
#[test]
fn atomic_write_keeps_permissions() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("state.json");
    fs::write(&path, "{}").unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
    atomic_write(&path, b"{\"x\": 1}").unwrap();
    assert_eq!(
        fs::metadata(&path).unwrap().permissions().mode() & 0o777,
        0o640
    );
}

#[test]
fn uncommitted_sessions_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let store = FileStateStore::new(dir.path());
    let mut s = store.begin().unwrap();
    assert_eq!(s.read(Document::State).unwrap(), None);
    drop(s);
    assert!(!store.path(Document::State).exists());
    let s = store.begin().unwrap();
    s.commit(vec![(
        Document::History,
        "{\"recommendations\": []}".into(),
    )])
    .unwrap();
    assert!(store.path(Document::History).exists());
    assert!(!store.path(Document::State).exists());
}

#[test]
fn sessions_are_exclusive_across_threads_and_lose_no_update() {
    let dir = tempfile::tempdir().unwrap();
    let store = FileStateStore::new(dir.path());
    let threads: Vec<_> = (0..4)
        .map(|_| {
            let store = store.clone();
            std::thread::spawn(move || {
                for _ in 0..25 {
                    let mut s = store.begin().unwrap();
                    let n: u64 = s
                        .read(Document::State)
                        .unwrap()
                        .map(|t| {
                            serde_json::from_str::<Value>(&t).unwrap()["n"]
                                .as_u64()
                                .unwrap()
                        })
                        .unwrap_or(0);
                    std::thread::yield_now();
                    s.commit(vec![(Document::State, format!("{{\"n\": {}}}", n + 1))])
                        .unwrap();
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    let text = fs::read_to_string(store.path(Document::State)).unwrap();
    assert_eq!(serde_json::from_str::<Value>(&text).unwrap()["n"], 100);
}

#[test]
fn a_held_lock_times_out_with_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let store = FileStateStore::new(dir.path()).with_lock_timeout(Duration::from_millis(30));
    let _held = store.begin().unwrap();
    let err = store
        .begin()
        .err()
        .expect("second session must wait and give up");
    assert!(matches!(err, StoreError::Locked { .. }), "{err}");
    assert!(err.to_string().contains("state.lock"));
}

#[test]
fn reads_refuse_oversized_and_non_utf8_files_without_touching_them() {
    let dir = tempfile::tempdir().unwrap();
    let store = FileStateStore::new(dir.path()).with_max_document_bytes(16);
    fs::write(store.path(Document::State), vec![b' '; 17]).unwrap();
    fs::write(store.path(Document::History), [0xff, 0xfe, b'{', b'}']).unwrap();
    let mut s = store.begin().unwrap();
    let err = s.read(Document::State).unwrap_err();
    assert!(
        matches!(
            err,
            StoreError::TooLarge {
                size: 17,
                limit: 16,
                ..
            }
        ),
        "{err}"
    );
    let err = s.read(Document::History).unwrap_err();
    assert!(matches!(err, StoreError::NotUtf8 { .. }), "{err}");
    assert!(err.to_string().contains("history.json"));
    assert_eq!(
        fs::read(store.path(Document::History)).unwrap(),
        [0xff, 0xfe, b'{', b'}']
    );
}

#[test]
fn legacy_files_are_migrated_once_and_templates_skipped() {
    let legacy = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let real_state = "{\"daily_rec_status\": \"enabled\"}";
    fs::write(legacy.path().join("state.json"), real_state).unwrap();
    fs::write(legacy.path().join("history.json"), HISTORY_TEMPLATE).unwrap();
    let store = FileStateStore::new(dir.path()).with_legacy_dir(Some(legacy.path().into()));
    drop(store.begin().unwrap());
    assert_eq!(
        fs::read_to_string(store.path(Document::State)).unwrap(),
        real_state
    );
    assert!(
        !store.path(Document::History).exists(),
        "an untouched template is not migrated"
    );
    assert_eq!(store.migrations().len(), 1);
    // Once the external file exists, the legacy file is never read again.
    fs::write(
        legacy.path().join("state.json"),
        "{\"daily_rec_status\": \"disabled\"}",
    )
    .unwrap();
    drop(store.begin().unwrap());
    assert_eq!(
        fs::read_to_string(store.path(Document::State)).unwrap(),
        real_state
    );
    assert_eq!(store.migrations().len(), 1);
}

#[test]
fn a_corrupt_legacy_file_is_an_error_and_stays() {
    let legacy = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    fs::write(legacy.path().join("state.json"), "{oops").unwrap();
    let store = FileStateStore::new(dir.path()).with_legacy_dir(Some(legacy.path().into()));
    let err = store.begin().err().unwrap();
    assert!(matches!(err, StoreError::Legacy { .. }), "{err}");
    assert!(!store.path(Document::State).exists());
    assert_eq!(
        fs::read_to_string(legacy.path().join("state.json")).unwrap(),
        "{oops"
    );
}

#[test]
fn memory_store_commits_only_on_commit() {
    let store = MemoryStateStore::with(Some("{}"), None);
    let s = store.begin().unwrap();
    drop(s);
    assert_eq!(store.get(Document::State).as_deref(), Some("{}"));
    let s = store.begin().unwrap();
    s.commit(vec![(Document::State, "{\"a\":1}".into())])
        .unwrap();
    assert_eq!(store.get(Document::State).as_deref(), Some("{\"a\":1}"));
}
