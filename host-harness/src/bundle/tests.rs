use super::*;
use std::io::Write;
use zip::write::SimpleFileOptions;

fn zip_of(entries: &[(&str, &[u8])]) -> (tempfile::TempDir, PathBuf) {
    let d = tempfile::tempdir().unwrap();
    let path = d.path().join("skill.zip");
    let mut w = zip::ZipWriter::new(fs::File::create(&path).unwrap());
    for (name, bytes) in entries {
        w.start_file(
            *name,
            SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated),
        )
        .unwrap();
        w.write_all(bytes).unwrap();
    }
    w.finish().unwrap();
    (d, path)
}

fn codes(b: &Bundle) -> Vec<&str> {
    b.notes.iter().map(|n| n.code.as_str()).collect()
}

#[test]
fn a_folder_is_read_with_kinds_and_executable_bits() {
    let d = tempfile::tempdir().unwrap();
    let root = d.path().join("pdf-tables");
    fs::create_dir_all(root.join("scripts")).unwrap();
    fs::create_dir_all(root.join(".git")).unwrap();
    fs::write(root.join("SKILL.md"), "---\nname: pdf-tables\n---\n").unwrap();
    fs::write(root.join("scripts/run.sh"), "#!/bin/sh\necho hi\n").unwrap();
    fs::write(root.join("logo.png"), b"\x89PNG\r\n\x1a\n\0\0data").unwrap();
    fs::write(root.join(".git/config"), "x").unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(
            root.join("scripts/run.sh"),
            fs::Permissions::from_mode(0o755),
        )
        .unwrap();
    }
    let b = read_bundle(&root, &BundleLimits::default()).unwrap();
    assert_eq!(b.name, "pdf-tables");
    let paths: Vec<&str> = b.files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(
        paths,
        ["SKILL.md", "logo.png", "scripts/run.sh"],
        ".git is skipped"
    );
    assert_eq!(b.files[1].kind, EntryKind::Binary);
    assert_eq!(b.files[1].magic.as_deref(), Some("png"));
    assert_eq!(b.files[2].kind, EntryKind::Text);
    #[cfg(unix)]
    assert!(b.files[2].executable);
}

#[cfg(unix)]
#[test]
fn symlinks_are_never_followed_out_and_prefix_confusion_is_caught() {
    use std::os::unix::fs::symlink;
    let d = tempfile::tempdir().unwrap();
    let root = d.path().join("skill");
    let sibling = d.path().join("skill-evil");
    fs::create_dir_all(&root).unwrap();
    fs::create_dir_all(&sibling).unwrap();
    fs::write(sibling.join("secret.txt"), "stolen").unwrap();
    fs::write(root.join("SKILL.md"), "---\nname: skill\n---\n").unwrap();
    symlink(sibling.join("secret.txt"), root.join("sibling-link")).unwrap();
    symlink("../skill-evil/secret.txt", root.join("relative-link")).unwrap();
    symlink("/etc/passwd", root.join("etc-link")).unwrap();
    symlink("SKILL.md", root.join("inside-link")).unwrap();
    symlink("loop-b", root.join("loop-a")).unwrap();
    symlink("loop-a", root.join("loop-b")).unwrap();
    let b = read_bundle(&root, &BundleLimits::default()).unwrap();
    let link = |n: &str| b.files.iter().find(|f| f.path == n).unwrap();
    assert!(
        link("sibling-link").link_escapes,
        "skill-evil is not inside skill"
    );
    assert!(link("relative-link").link_escapes);
    assert!(link("etc-link").link_escapes);
    assert!(!link("inside-link").link_escapes);
    assert!(
        b.files
            .iter()
            .all(|f| f.content.as_deref() != Some("stolen")),
        "never read through a link"
    );
    assert!(codes(&b).contains(&"symlink_loop"));
}

#[test]
fn zip_slip_absolute_and_duplicate_entries_are_refused() {
    let (_d, path) = zip_of(&[
        ("SKILL.md", b"---\nname: s\n---\n"),
        ("../../evil.sh", b"echo owned"),
        ("/etc/cron.d/x", b"* * * * * root sh"),
        ("C:/Windows/x.bat", b"x"),
        ("scripts\\run.sh", b"a"),
        ("scripts/run.sh", b"b"),
    ]);
    let b = read_bundle(&path, &BundleLimits::default()).unwrap();
    let c = codes(&b);
    assert!(c.contains(&"path_escape"), "{c:?}");
    assert_eq!(
        c.iter().filter(|x| **x == "absolute_path").count(),
        2,
        "{c:?}"
    );
    assert!(c.contains(&"duplicate_path"), "{c:?}");
    let paths: Vec<&str> = b.files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(paths, ["SKILL.md", "scripts/run.sh"]);
}

#[test]
fn zip_bombs_and_lying_sizes_are_not_extracted() {
    let zeros = vec![0u8; 8 << 20];
    let (_d, path) = zip_of(&[("SKILL.md", b"---\nname: s\n---\n"), ("bomb.txt", &zeros)]);
    let b = read_bundle(&path, &BundleLimits::default()).unwrap();
    assert_eq!(codes(&b), ["zip_bomb"]);
    assert_eq!(b.files.len(), 1);
    let small = BundleLimits {
        max_file_bytes: 1024,
        ..BundleLimits::default()
    };
    let (_d, path) = zip_of(&[("big.md", &vec![b'a'; 4096])]);
    assert_eq!(
        codes(&read_bundle(&path, &small).unwrap()),
        ["file_too_large"]
    );
}

#[test]
fn caps_on_count_and_total() {
    let names: Vec<String> = (0..10).map(|i| format!("f{i}.md")).collect();
    let entries: Vec<(&str, &[u8])> = names.iter().map(|n| (n.as_str(), &b"hello"[..])).collect();
    let (_d, path) = zip_of(&entries);
    let few = BundleLimits {
        max_files: 3,
        ..BundleLimits::default()
    };
    let b = read_bundle(&path, &few).unwrap();
    assert_eq!((b.files.len(), codes(&b)), (3, vec!["too_many_files"]));
    let tiny_total = BundleLimits {
        max_total_bytes: 12,
        ..BundleLimits::default()
    };
    assert!(codes(&read_bundle(&path, &tiny_total).unwrap()).contains(&"bundle_too_large"));
}

#[test]
fn a_wrapper_folder_is_stripped_and_names_the_bundle() {
    let (_d, path) = zip_of(&[
        ("pdf-tables/SKILL.md", b"---\nname: pdf-tables\n---\n"),
        ("pdf-tables/scripts/a.py", b"print(1)"),
    ]);
    let b = read_bundle(&path, &BundleLimits::default()).unwrap();
    assert_eq!(b.name, "pdf-tables");
    assert_eq!(
        b.files.iter().map(|f| f.path.as_str()).collect::<Vec<_>>(),
        ["SKILL.md", "scripts/a.py"]
    );
}

#[test]
fn archive_symlinks_are_judged_lexically() {
    assert!(archive_link_escapes("a/link", "../../etc/passwd"));
    assert!(!archive_link_escapes("a/link", "../SKILL.md"));
    assert!(archive_link_escapes("link", "/etc/passwd"));
    assert!(archive_link_escapes("link", "C:\\x"));
}

#[test]
fn magic_bytes() {
    assert_eq!(magic(b"\x7fELF\x02"), Some("elf"));
    assert_eq!(magic(b"MZ\x90\0"), Some("pe"));
    assert_eq!(magic(&[0xcf, 0xfa, 0xed, 0xfe, 7]), Some("macho"));
    assert_eq!(magic(b"# title"), None);
    let e = entry("a.md".into(), b"text\0with nul".to_vec(), false, &mut None);
    assert_eq!(e.kind, EntryKind::Binary);
    let e = entry("b.md".into(), vec![0xff, 0xfe, b'a'], false, &mut None);
    assert_eq!(e.kind, EntryKind::Binary, "invalid UTF-8 is not text");
}
