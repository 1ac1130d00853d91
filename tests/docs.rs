//! The README and the guide: every link to a file of the repository goes
//! to a file that is there, and every `#anchor` to a heading that is.

use std::path::{Path, PathBuf};

/// The Markdown files: the README and everything under `docs/`.
fn markdown(root: &Path) -> Vec<PathBuf> {
    let mut out = vec![root.join("README.md")];
    let mut todo = vec![root.join("docs")];
    while let Some(dir) = todo.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            let meta = std::fs::symlink_metadata(&p).unwrap();
            if meta.is_dir() {
                todo.push(p);
            } else if meta.is_file() && p.extension().is_some_and(|x| x == "md") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The link targets of a Markdown text, outside code: `[text](target)`.
fn links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut fence = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fence = !fence;
            continue;
        }
        if fence {
            continue;
        }
        // Inline code is not a link.
        let line: String = line.split('`').step_by(2).collect::<Vec<_>>().join(" ");
        let mut rest = line.as_str();
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let Some(end) = after.find(')') else { break };
            let target = after[..end].split_whitespace().next().unwrap_or("");
            out.push(target.to_string());
            rest = &after[end..];
        }
    }
    out
}

/// A heading's anchor as GitHub and mdBook make it.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a Markdown text's headings.
fn anchors(text: &str) -> Vec<String> {
    let mut fence = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fence = !fence;
        } else if !fence && line.starts_with('#') {
            out.push(slug(line.trim_start_matches('#')));
        }
    }
    out
}

/// The broken links of the Markdown files: (file, target, why).
fn broken(files: &[PathBuf]) -> Vec<(PathBuf, String, &'static str)> {
    let mut out = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(file).unwrap();
        for target in links(&text) {
            if target.contains("://") || target.starts_with("mailto:") || target.is_empty() {
                continue;
            }
            let (path, anchor) = match target.split_once('#') {
                Some((p, a)) => (p, Some(a)),
                None => (target.as_str(), None),
            };
            let to = if path.is_empty() {
                file.clone()
            } else {
                file.parent().unwrap().join(path)
            };
            if !to.exists() {
                out.push((file.clone(), target.clone(), "no such file"));
                continue;
            }
            if let Some(a) = anchor
                && to.extension().is_some_and(|x| x == "md")
            {
                let there = std::fs::read_to_string(&to).unwrap();
                if !anchors(&there).iter().any(|h| h == a) {
                    out.push((file.clone(), target.clone(), "no such heading"));
                }
            }
        }
    }
    out
}

#[test]
fn every_link_in_the_readme_and_the_guide_goes_somewhere() {
    let root = std::env::current_dir().unwrap();
    let files = markdown(&root);
    assert!(files.iter().any(|f| f.ends_with("docs/guide/SUMMARY.md")));
    let bad = broken(&files);
    assert!(bad.is_empty(), "broken links: {bad:#?}");
}

#[test]
fn every_guide_page_is_in_its_summary_and_the_readme_links_it() {
    let root = std::env::current_dir().unwrap();
    let summary = std::fs::read_to_string(root.join("docs/guide/SUMMARY.md")).unwrap();
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    for e in std::fs::read_dir(root.join("docs/guide")).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        if name == "SUMMARY.md" || !name.ends_with(".md") {
            continue;
        }
        assert!(
            summary.contains(&format!("({name})")),
            "{name} is not in SUMMARY.md"
        );
        assert!(
            readme.contains(&format!("(docs/guide/{name})")),
            "the README does not link {name}"
        );
    }
}

#[test]
fn the_link_check_sees_a_missing_file_and_a_missing_heading() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("b.md"), "# Real heading\n").unwrap();
    let a = dir.path().join("a.md");
    std::fs::write(
        &a,
        "[ok](b.md) [ok](b.md#real-heading) [web](https://x.org/y)\n\
         [gone](c.md) [bad](b.md#nowhere) `[code](d.md)`\n\
         ```\n[fenced](e.md)\n```\n",
    )
    .unwrap();
    let bad = broken(&[a]);
    let found: Vec<(&str, &str)> = bad.iter().map(|(_, t, w)| (t.as_str(), *w)).collect();
    assert_eq!(
        found,
        [
            ("c.md", "no such file"),
            ("b.md#nowhere", "no such heading")
        ]
    );
}
