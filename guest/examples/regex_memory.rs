//! Native: the heap the content rules' compiled regexes hold (regex-automata's `memory_usage`),
//! in total and for the ten largest rules. `cargo run -p guest --release --example regex_memory`
use guest::scan::RuleSet;

fn main() {
    let set = RuleSet::builtin();
    let memory = set.regex_memory();
    let sum =
        |f: fn(&guest::scan::rules::RegexMemory) -> usize| memory.iter().map(f).sum::<usize>();
    let mb = |b: usize| b as f64 / 1e6;
    println!(
        "{} rules: regexes {:.2} MB, ASCII twins {:.2} MB, exemptions {:.2} MB, total {:.2} MB",
        memory.len(),
        mb(sum(|m| m.regex)),
        mb(sum(|m| m.twin)),
        mb(sum(|m| m.unless)),
        mb(sum(|m| m.total()))
    );
    let mut order: Vec<usize> = (0..memory.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(memory[i].total()));
    for &i in order.iter().take(10) {
        let m = memory[i];
        println!(
            "  {:<48} {:>6.2} MB (regex {:.2}, twin {:.2}, unless {:.2})",
            set.rules[i].id,
            mb(m.total()),
            mb(m.regex),
            mb(m.twin),
            mb(m.unless)
        );
    }
}
