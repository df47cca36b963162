//! Candidate JSON → normalize, and → filter → scan → rank → pick → card (`recommend`, both modes)
//! against enabled daily state: any input is processed or refused as invalid input.
#![no_main]

use guest::filter::Mode;
use guest::recommend::{Options, run};
use guest::{Ctx, Lang, MemoryStore};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = guest::normalize::normalize(text, None, &Default::default());
    let ctx = Ctx {
        now: "2026-11-29T02:00:00Z".into(),
        host_timezone: Some("Asia/Shanghai".into()),
        lang: Lang::En,
    };
    let opts = Options {
        task: Some("extract PDF tables 表格".into()),
        signals: vec!["weekly reports".into()],
        remote_version: Some("9.9.9".into()),
        ..Options::default()
    };
    for mode in [Mode::Manual, Mode::Daily] {
        let mut store = MemoryStore::with(Some(r#"{"daily_rec_status": "enabled"}"#), None);
        match run(&ctx, &mut store, mode, text, &[], &opts) {
            Ok(out) => {
                if out["silent"] == false {
                    let card = out["card"].as_str().expect("a pick always has a card");
                    assert!(!card.is_empty());
                    assert_ne!(out["pick"]["risk_level"], "high");
                    // The card renders again from the JSON it came with.
                    let again = guest::render::run(&ctx, mode, &out.to_string()).expect("render");
                    assert_eq!(again["card"], out["card"]);
                }
            }
            Err(e) => assert!(!e.to_string().is_empty()),
        }
    }
});
