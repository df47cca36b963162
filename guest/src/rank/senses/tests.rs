//! Word senses: each rule with requests it must change and requests it must leave alone.

use crate::rank::lexicon::lexicon;
use crate::rank::text::Vocab;

/// The concept names a request is read as (after the phrasing and sense rules).
fn concepts(task: &str) -> Vec<String> {
    let mut v = Vocab::default();
    let a = v.analyze_request(task);
    let lex = lexicon();
    a.concepts
        .iter()
        .map(|h| lex.concepts[h.concept].name.clone())
        .collect()
}

fn has(task: &str, name: &str) -> bool {
    concepts(task).iter().any(|c| c == name)
}

#[test]
fn an_alert_at_a_time_is_a_reminder() {
    // Must: a time and no condition.
    for task in [
        "ping me every Monday at 8 to send the invoices",
        "每周五晚上提醒我倒垃圾",
        "let me know the evening before the rent is due",
    ] {
        assert!(has(task, "remind"), "{task}: {:?}", concepts(task));
        assert!(has(task, "reminder"), "{task}: {:?}", concepts(task));
        assert!(!has(task, "alert"), "{task}: {:?}", concepts(task));
    }
    // Must not: a condition (when, 一旦, 超过), or no time at all.
    for task in [
        "ping me when the price of the stock drops below 20",
        "价格一旦超过 100 就提醒我",
        "let me know if the site goes down",
        "notify me about new comments",
    ] {
        assert!(!has(task, "remind"), "{task}: {:?}", concepts(task));
        assert!(has(task, "alert"), "{task}: {:?}", concepts(task));
    }
}

#[test]
fn an_action_noun_after_a_determiner_is_a_noun() {
    // Must: the noun of another sense.
    for (task, action) in [
        ("summarize the book I finished for my club", "schedule"),
        ("my watch keeps losing time", "monitor"),
        ("put a sign on the shop door", "sign"),
    ] {
        assert!(!has(task, action), "{task}: {:?}", concepts(task));
    }
    // Must not: the verb.
    for (task, action) in [
        ("book a table for four on Friday", "schedule"),
        ("watch the competitor's prices", "monitor"),
        ("sign the lease as a PDF", "sign"),
    ] {
        assert!(has(task, action), "{task}: {:?}", concepts(task));
    }
}

#[test]
fn a_free_word_is_kept_for_a_noun_read_as_such() {
    let mut v = Vocab::default();
    let a = v.analyze_request("summarize the book for my club");
    let book = a
        .tokens
        .iter()
        .find(|t| &a.lower[t.at.0 as usize..t.at.1 as usize] == "book")
        .expect("a token for book");
    assert!(book.free);
    let a = v.analyze_request("book a table for four");
    let book = a.tokens.iter().find(|t| t.at.0 == 0).expect("a token");
    assert!(!book.free);
}

#[test]
fn down_is_monitoring_only_as_a_state() {
    for task in [
        "tell me whenever the shop site is down",
        "our api went down twice",
    ] {
        assert!(has(task, "monitor"), "{task}: {:?}", concepts(task));
    }
    for task in [
        "write down the steps for new staff",
        "cut down this essay to 300 words",
    ] {
        assert!(!has(task, "monitor"), "{task}: {:?}", concepts(task));
    }
}

#[test]
fn a_compound_blocks_its_parts_senses() {
    // Must: the compound's parts are not read (转 convert, 视频 video, 聊天 chat history).
    for (task, part) in [
        ("试用期转正申请怎么写", "convert"),
        ("明天的视频会议约几点", "video"),
        ("做一个客服聊天机器人", "chat-history"),
        ("出国签证要准备什么材料", "sign"),
    ] {
        assert!(!has(task, part), "{task}: {:?}", concepts(task));
    }
    assert!(!has("明天的视频会约几点", "video"));
    // Must not: the character or word in its own sense.
    for (task, part) in [
        ("把这个视频转成 gif", "video"),
        ("把这个视频转成 gif", "convert"),
        ("把和客户的聊天记录导出来", "chat-history"),
        ("合同签一下", "sign"),
    ] {
        assert!(has(task, part), "{task}: {:?}", concepts(task));
    }
}

#[test]
fn modifiers_between_a_determiner_and_a_noun_keep_it_a_noun() {
    // Must: adjectives, nouns used as adjectives and numbers stand between the determiner and the
    // noun of another sense.
    for (task, action) in [
        ("summarize the long book I finished for my club", "schedule"),
        ("my old smart watch keeps losing time", "monitor"),
        ("put a big red sign on the shop door", "sign"),
        ("find the quarterly sales record for March", "record"),
    ] {
        assert!(!has(task, action), "{task}: {:?}", concepts(task));
    }
    // Must not: the verb, also after a modifier-like word that is an action or a stop word, and no
    // more than the most modifiers read.
    for (task, action) in [
        ("please book the cheapest flight to Rome", "schedule"),
        ("I want to book a table for four", "schedule"),
        ("summarize and then sign the new lease", "sign"),
        ("watch the competitor prices every day", "monitor"),
    ] {
        assert!(has(task, action), "{task}: {:?}", concepts(task));
    }
}

#[test]
fn an_inflected_product_name_is_the_common_noun() {
    // Must: another form of the product's name is the common noun.
    for (task, product) in [
        ("count the words in my essay", "word-doc"),
        ("fix the wording of this paragraph", "word-doc"),
        ("my notions about the pricing page", "notion"),
    ] {
        assert!(!has(task, product), "{task}: {:?}", concepts(task));
    }
    // Must not: the name's own form, in any case.
    for (task, product) in [
        ("convert this pdf to word", "word-doc"),
        ("merge these Word documents into one", "word-doc"),
        ("send it from my Outlook", "email"),
        ("add a row to my Notion database", "notion"),
    ] {
        assert!(has(task, product), "{task}: {:?}", concepts(task));
    }
}

#[test]
fn a_word_beside_a_neighbouring_domain_is_read_in_that_sense() {
    // Must: a show's script and host, a school worksheet, issuing a document.
    for (task, concept) in [
        ("Write the host's script for our Douyin live sale", "code"),
        ("Write the host's script for our Douyin live sale", "server"),
        ("a script for my cooking video", "code"),
        (
            "mark the wrong answers on my kid's math worksheet",
            "spreadsheet",
        ),
        ("issue an invoice to the client", "issue"),
        ("issue a certificate of employment", "issue"),
    ] {
        assert!(!has(task, concept), "{task}: {:?}", concepts(task));
    }
    // Must not: the software sense where no such concept is named.
    for (task, concept) in [
        ("fix the deploy script on the host", "code"),
        ("fix the deploy script on the host", "server"),
        ("merge the worksheets of these Excel files", "spreadsheet"),
        ("triage the open issues in our repo", "issue"),
    ] {
        assert!(has(task, concept), "{task}: {:?}", concepts(task));
    }
}
