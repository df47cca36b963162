use super::*;

fn norm(v: Value, r: Option<Registry>) -> Normalized {
    normalize(&v.to_string(), r, &Options::default()).unwrap()
}

#[test]
fn clawhub_list_item_ms_epochs_topics_not_tags() {
    let n = norm(
        json!({"items": [{"slug": "GifGrep", "displayName": "GifGrep", "summary": "Search animated GIFs by text.",
            "topics": ["Media"], "tags": {"latest": "1.2.3"}, "stats": {"downloads": "1,200", "stars": 33, "installsAllTime": 900},
            "createdAt": 1730000000000u64, "updatedAt": 1760000000000u64, "owner": {"handle": "steipete"},
            "moderation": {"isSuspicious": true, "isMalwareBlocked": false, "verdict": "suspicious", "reasonCodes": ["obfuscated_shell"]}}]}),
        None,
    );
    assert_eq!(n.registry, Registry::Clawhub);
    let c = &n.candidates[0];
    assert_eq!(c.skill_id, "clawhub:gifgrep");
    assert_eq!(c.owner.as_deref(), Some("steipete"));
    assert_eq!(c.url, "https://clawhub.ai/steipete/GifGrep");
    assert_eq!(c.categories, vec!["media"]);
    assert_eq!(c.updated_at.as_deref(), Some("2025-10-09T08:53:20Z"));
    assert_eq!((c.popularity.downloads, c.popularity.stars), (1200, 33));
    assert_eq!(c.extra["version"], "1.2.3");
    let r = c.registry.as_ref().unwrap();
    assert_eq!(
        (r.verdict.as_deref(), r.is_suspicious),
        (Some("suspicious"), true)
    );
    assert_eq!(r.flags, vec!["obfuscated_shell"]);
}

#[test]
fn clawhub_metadata_os_and_requires_become_platforms_and_prerequisites() {
    let n = norm(
        json!({"items": [
            {"slug": "imsg", "summary": "Send and read iMessages from the agent.", "metadata": {"os": ["darwin"], "requires": {"bins": ["imsg"], "env": ["IMSG_DB"]}}},
            {"slug": "plain", "summary": "A skill that declares nothing at all."}]}),
        None,
    );
    let c = &n.candidates[0];
    assert_eq!(c.platforms, vec!["macos"]);
    assert_eq!(c.prerequisites.commands, vec!["imsg"]);
    assert_eq!(c.prerequisites.env_vars, vec!["IMSG_DB"]);
    assert!(n.candidates[1].platforms.is_empty());
    let v = serde_json::to_value(&n.candidates[1]).unwrap();
    assert!(v.get("platforms").is_none() && v.get("prerequisites").is_none());
}

#[test]
fn skillssh_monorepo_items_keep_their_subpath() {
    let n = norm(
        json!({"skills": [
            {"id": "vercel-labs/agent-skills/react-best-practices", "skillId": "react-best-practices", "name": "react-best-practices", "installs": 185000, "source": "vercel-labs/agent-skills"},
            {"id": "vercel-labs/agent-skills/next-cache", "skillId": "next-cache", "name": "next-cache", "installs": "900", "source": "vercel-labs/agent-skills"}]}),
        None,
    );
    assert_eq!(n.registry, Registry::Skillssh);
    let c = &n.candidates[0];
    assert_eq!(
        c.skill_id,
        "skillssh:vercel-labs/agent-skills/react-best-practices"
    );
    assert_eq!(
        c.source_code_url.as_deref(),
        Some("https://github.com/vercel-labs/agent-skills")
    );
    assert_eq!(c.source_subpath.as_deref(), Some("react-best-practices"));
    assert_eq!(c.popularity.downloads, 185000);
    assert_eq!(n.candidates[1].popularity.downloads, 900);
}

#[test]
fn bad_items_are_skipped_with_index_and_bad_fields_warned() {
    let n = norm(
        json!({"items": [
            {"slug": "good", "summary": "A good skill that works well."},
            "just a string",
            {"displayName": "No slug"},
            {"slug": "baddate", "updatedAt": "not a date"},
            {"slug": "badcount", "stats": {"downloads": "many"}}]}),
        Some(Registry::Clawhub),
    );
    assert_eq!(n.candidates.len(), 3);
    assert_eq!(
        n.skipped.iter().map(|s| s.index).collect::<Vec<_>>(),
        vec![1, 2]
    );
    assert_eq!(n.skipped[1].field, "slug");
    let warned: Vec<(usize, &str)> = n
        .warnings
        .iter()
        .map(|w| (w.index, w.field.as_str()))
        .collect();
    assert!(warned.contains(&(3, "updatedAt")), "{warned:?}");
    assert!(warned.contains(&(4, "stats.downloads")), "{warned:?}");
}

#[test]
fn epochs_and_dates() {
    assert_eq!(
        to_iso(&json!(1760000000000u64)).as_deref(),
        Some("2025-10-09T08:53:20Z")
    );
    assert_eq!(
        to_iso(&json!(1760000000)).as_deref(),
        Some("2025-10-09T08:53:20Z")
    );
    assert_eq!(
        to_iso(&json!("1760000000000")).as_deref(),
        Some("2025-10-09T08:53:20Z")
    );
    assert_eq!(
        to_iso(&json!("2026-05-01")).as_deref(),
        Some("2026-05-01T00:00:00Z")
    );
    assert_eq!(
        to_iso(&json!("2026-05-01T10:00:00+02:00")).as_deref(),
        Some("2026-05-01T08:00:00Z")
    );
    assert_eq!(to_iso(&json!("soon")), None);
}

#[test]
fn skillhub_needs_a_base_url_for_pages() {
    let v = json!({"results": [{"slug": "iflytek--meeting-notes", "name": "会议纪要", "description": "把会议录音整理成结构化纪要。",
        "downloadCount": "120", "starCount": 8, "updatedAt": "2026-10-01T00:00:00Z"}]});
    let n = normalize(&v.to_string(), None, &Options::default()).unwrap();
    assert_eq!(n.registry, Registry::Skillhub);
    assert_eq!(n.candidates[0].url, "");
    assert_eq!(n.warnings[0].field, "url");
    assert_eq!(n.candidates[0].owner.as_deref(), Some("iflytek"));
    let n = normalize(
        &v.to_string(),
        None,
        &Options {
            base_url: Some("https://hub.example.com/".into()),
        },
    )
    .unwrap();
    assert_eq!(
        n.candidates[0].url,
        "https://hub.example.com/skills/iflytek--meeting-notes"
    );
}

#[test]
fn unknown_shapes_ask_for_from() {
    let err = normalize(r#"{"foo": [{"bar": 1}]}"#, None, &Options::default()).unwrap_err();
    assert!(matches!(err, Error::InvalidInput { ref field, .. } if field == "from"));
}
