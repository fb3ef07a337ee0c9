//! The report's rows: each result row in a compact form, read from the CSV a row at a
//! time. Names (corpus, instance, hash, encoding, solver, family, error) are interned
//! ([`Name`], 4 bytes, each distinct text stored once for the whole process); what rows
//! share is held once and named by number ([`Aside`]): an instance's columns (corpus, id,
//! hash, kind, side, family), a configuration's (encoding, solver, mode), and a run's
//! settings (its limits, jobs, exit code and repetition, an error, a count's figures,
//! the formula's size, the trust as written and the limit that ended the run), and work
//! counters too large for 4 bytes; the columns no report figure reads (peak memory,
//! givens, the proof checkers' time and memory) are kept only as a digest, so that merging
//! still tells a duplicate from a clash ([`digest`], beside the rows while they are
//! merged). A row takes 48 bytes and no memory of its own besides.

use std::collections::HashMap;
use std::hash::{BuildHasher, BuildHasherDefault, Hasher};

use hashbrown::HashTable;
use rustc_hash::FxHasher;
use std::path::Path;
use std::sync::{Mutex, OnceLock};

use anyhow::Context;

use super::aside::Aside;

use crate::results::{Check, InstanceKind, Key, Mode, TimeBasis, Trust};
use crate::solver::work::Work;
use crate::solver::{LimitHit, Status};

/// An interned text: equal texts are one number (4 bytes), so equality and hashing are a
/// number's; order is the text's.
#[derive(Clone, Copy)]
pub struct Name(u32);

impl Name {
    /// The name of `text` (stored once, for the rest of the process).
    pub fn new(text: &str) -> Name {
        let mut interner = INTERNER.lock().unwrap_or_else(|e| e.into_inner());
        interner.intern(text)
    }

    /// The name's number: equal for equal texts, in no particular order.
    pub fn number(self) -> u32 {
        self.0
    }

    /// The text (the same address for every copy of the name).
    pub fn as_str(&self) -> &'static str {
        if self.0 == EMPTY.0 {
            return "";
        }
        let chunk = TEXTS[(self.0 >> CHUNK_BITS) as usize]
            .get()
            .expect("a name's chunk is filled before the name exists");
        chunk[(self.0 & CHUNK_MASK) as usize]
            .get()
            .expect("a name's text is stored before the name exists")
    }
}

/// The empty text's name: the interner's first.
const EMPTY: Name = Name(0);

impl Default for Name {
    fn default() -> Name {
        EMPTY
    }
}

impl std::ops::Deref for Name {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Name {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq for Name {
    fn eq(&self, other: &Name) -> bool {
        self.0 == other.0
    }
}
impl Eq for Name {}

impl PartialEq<str> for Name {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}
impl PartialEq<&str> for Name {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}
impl PartialEq<String> for Name {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other.as_str()
    }
}
impl PartialEq<Name> for str {
    fn eq(&self, other: &Name) -> bool {
        self == other.as_str()
    }
}
impl PartialEq<Name> for &str {
    fn eq(&self, other: &Name) -> bool {
        *self == other.as_str()
    }
}
impl PartialEq<Name> for String {
    fn eq(&self, other: &Name) -> bool {
        self.as_str() == other.as_str()
    }
}

impl PartialOrd for Name {
    fn partial_cmp(&self, other: &Name) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Name {
    fn cmp(&self, other: &Name) -> std::cmp::Ordering {
        if self == other {
            std::cmp::Ordering::Equal
        } else {
            self.as_str().cmp(other.as_str())
        }
    }
}

impl std::hash::Hash for Name {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_usize(self.0 as usize);
    }
}

impl std::fmt::Debug for Name {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self.as_str(), f)
    }
}

impl std::fmt::Display for Name {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl From<&str> for Name {
    fn from(text: &str) -> Name {
        Name::new(text)
    }
}

impl From<String> for Name {
    fn from(text: String) -> Name {
        Name::new(&text)
    }
}

impl serde::Serialize for Name {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// A hasher for [`Name`]s, whose hash is their address: one multiplication.
#[derive(Default)]
pub struct NameHasher(u64);

impl Hasher for NameHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }
    fn write_usize(&mut self, x: usize) {
        self.0 = (self.0 ^ x as u64)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .rotate_left(29);
    }
}

/// A map keyed by names (or tuples of them), hashed by address.
pub type NameMap<K, V> = HashMap<K, V, BuildHasherDefault<NameHasher>>;

/// The text order of a set of names as small numbers: ordering by rank is ordering by
/// text, at the cost of comparing two integers.
pub struct Ranks(NameMap<Name, u32>);

impl Ranks {
    /// The ranks of `names` (each distinct name once, in text order).
    pub fn of(names: impl IntoIterator<Item = Name>) -> Ranks {
        let mut map = NameMap::default();
        for name in names {
            map.entry(name).or_insert(0);
        }
        let mut sorted: Vec<Name> = map.keys().copied().collect();
        sorted.sort_unstable_by(|a, b| a.as_str().cmp(b.as_str()));
        for (rank, name) in sorted.into_iter().enumerate() {
            map.insert(name, rank as u32);
        }
        Ranks(map)
    }

    /// The rank of `name` (one of those ranked).
    pub fn of_name(&self, name: Name) -> u32 {
        self.0[&name]
    }
}

/// Names to a chunk of the table of texts, as a power of two.
const CHUNK_BITS: u32 = 16;
const CHUNK_MASK: u32 = (1 << CHUNK_BITS) - 1;

/// Each name's text by number, in chunks filled as names are made (read without a lock).
#[allow(clippy::declare_interior_mutable_const)]
static TEXTS: [OnceLock<Box<[OnceLock<&'static str>]>>; 1 << (32 - CHUNK_BITS)] =
    [const { OnceLock::new() }; 1 << (32 - CHUNK_BITS)];

/// Every name's text, in arenas that are never freed nor moved, and the names found by
/// their text's hash (4 bytes a name: the text is read through its number).
struct Interner {
    names: HashTable<u32>,
    text: &'static mut [u8],
    next: u32,
}

static INTERNER: Mutex<Interner> = Mutex::new(Interner {
    names: HashTable::new(),
    text: &mut [],
    next: 0,
});

/// The hash of a name's text.
fn text_hash(text: &str) -> u64 {
    BuildHasherDefault::<FxHasher>::default().hash_one(text)
}

impl Interner {
    fn intern(&mut self, text: &str) -> Name {
        let hash = text_hash(text);
        if let Some(&name) = self.names.find(hash, |&n| Name(n).as_str() == text) {
            return Name(name);
        }
        if self.next == 0 && !text.is_empty() {
            self.intern(""); // number 0, [`EMPTY`]
        }
        let stored: &'static str = if text.len() > 4096 {
            Box::leak(text.into())
        } else {
            if self.text.len() < text.len() {
                self.text = vec![0u8; 1 << 20].leak();
            }
            let (head, rest) = std::mem::take(&mut self.text).split_at_mut(text.len());
            self.text = rest;
            head.copy_from_slice(text.as_bytes());
            std::str::from_utf8(head).expect("copied from a str")
        };
        let id = self.next;
        self.next = id.checked_add(1).expect("fewer than 2^32 distinct names");
        let chunk = TEXTS[(id >> CHUNK_BITS) as usize]
            .get_or_init(|| (0..=CHUNK_MASK).map(|_| OnceLock::new()).collect());
        chunk[(id & CHUNK_MASK) as usize]
            .set(stored)
            .expect("a new name's slot is empty");
        self.names
            .insert_unique(hash, id, |&n| text_hash(Name(n).as_str()));
        Name(id)
    }
}

/// An optional number in 8 bytes: `u64::MAX` for none.
const NO_COUNT: u64 = u64::MAX;

/// A work counter in 4 bytes: none.
const WORK_NONE: u32 = u32::MAX;
/// A row's work counters when one of them does not fit in 4 bytes: the first word says
/// so, the second holds the counters' number in [`WIDE_WORK`].
const WORK_WIDE: u32 = u32::MAX - 1;

/// The work counters too large for 4 bytes.
static WIDE_WORK: Aside<4> = Aside::new([NO_COUNT; 4]);
/// Variables and clauses of the CNF.
static SIZES: Aside<2> = Aside::new([0, 0]);
/// A `--count`'s wall and CPU seconds, as bits, and the solutions it found ([`NO_COUNT`]:
/// none); number 0 is a row's default (zero seconds, no solutions).
static COUNTS: Aside<3> = Aside::new([0, 0, NO_COUNT]);
/// The run's settings, the child's exit code, the repetition, the error, a count's
/// figures, the formula's size and how far the answer is trusted and which limit ended
/// the run, which most rows share: the wall limit and the CPU limit as bits, the parallel
/// jobs, the exit code ([`NO_COUNT`]: none), the repetition number, the error's name with
/// the number of a count's figures in [`COUNTS`] as one word, and the size's number in
/// [`SIZES`] with the trust and the limit ([`verdict_code`]) as one word; number 0 is a
/// row's default.
static SETTINGS: Aside<7> = Aside::new([0, NO_COUNT, 0, NO_COUNT, 0, 0, 0]);
/// Each instance's columns ([`Instance::words`]); number 0 is a row's default.
static INSTANCES: Aside<3> = Aside::new([0; 3]);
/// The encoding and the solver's names, and the mode ([`mode_code`]); number 0 is a row's
/// default.
static CONFIGS: Aside<2> = Aside::new([0; 2]);

/// The words of [`SETTINGS`] for a run; `sized` is the last word (the size and the
/// verdict's trust and limit, see [`sized`]).
fn settings(
    timeout_s: f64,
    cpu_limit_s: Option<f64>,
    jobs: u32,
    exit: Option<i32>,
    (run, error, counts, sized): (u32, Name, u32, u64),
) -> [u64; 7] {
    [
        timeout_s.to_bits(),
        packed(cpu_limit_s),
        u64::from(jobs),
        exit.map_or(NO_COUNT, |c| u64::from(c as u32)),
        u64::from(run),
        pair(error.0, counts),
        sized,
    ]
}

/// The last word of [`SETTINGS`]: the size's number in [`SIZES`], the trust as written
/// and the limit that ended the run.
fn sized(sizes: u32, trust: Option<Trust>, limit: Option<LimitHit>) -> u64 {
    pair(sizes, verdict_code(trust, limit))
}

/// The trust as written (0: none, else 1 + its place in [`Trust::ALL`]) times four, plus
/// the limit hit (0: none, 1 wall, 2 CPU, 3 memory).
fn verdict_code(trust: Option<Trust>, limit: Option<LimitHit>) -> u32 {
    let trust = trust.map_or(0, |t| {
        1 + Trust::ALL.iter().position(|&x| x == t).unwrap_or(0) as u32
    });
    let limit = match limit {
        None => 0,
        Some(LimitHit::Wall) => 1,
        Some(LimitHit::Cpu) => 2,
        Some(LimitHit::Memory) => 3,
    };
    trust * 4 + limit
}

/// The trust and the limit of a [`verdict_code`].
fn verdict_of(code: u32) -> (Option<Trust>, Option<LimitHit>) {
    let trust = (code / 4)
        .checked_sub(1)
        .and_then(|i| Trust::ALL.get(i as usize).copied());
    let limit = match code % 4 {
        1 => Some(LimitHit::Wall),
        2 => Some(LimitHit::Cpu),
        3 => Some(LimitHit::Memory),
        _ => None,
    };
    (trust, limit)
}

/// Conflicts, decisions, propagations and guesses ([`NO_COUNT`]: none) in 16 bytes.
fn packed_work(work: [u64; 4]) -> [u32; 4] {
    let narrow = |x: u64| {
        (x == NO_COUNT)
            .then_some(WORK_NONE)
            .or_else(|| u32::try_from(x).ok().filter(|&x| x < WORK_WIDE))
    };
    if let [Some(a), Some(b), Some(c), Some(d)] = work.map(narrow) {
        return [a, b, c, d];
    }
    [WORK_WIDE, WIDE_WORK.number(work), 0, 0]
}

/// The counters [`packed_work`] packed.
fn unpacked_work(work: [u32; 4]) -> [u64; 4] {
    if work[0] == WORK_WIDE {
        return WIDE_WORK.get(work[1]);
    }
    work.map(|x| {
        if x == WORK_NONE {
            NO_COUNT
        } else {
            u64::from(x)
        }
    })
}

/// One result row as the report reads it (see the module's note).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Row {
    /// The instance: corpus, id, hash, kind, side and family, by number in [`INSTANCES`]
    /// ([`Row::corpus`], [`Row::instance`], [`Row::hash`], [`Row::kind`], [`Row::side`],
    /// [`Row::family`]).
    pub(crate) who: u32,
    /// The encoding, the solver and its mode, by number in [`CONFIGS`] ([`Row::encoding`],
    /// [`Row::solver`], [`Row::mode`]).
    pub(crate) config: u32,
    /// The wall limit, the CPU limit, the parallel jobs, the child's exit code, the
    /// repetition, why (for errors and wrong answers), with `--count` the wall and CPU
    /// seconds of the whole count and the solutions found, the formula's variables and
    /// clauses, the trust as written and the limit that ended the run, by number in
    /// [`SETTINGS`] ([`Row::timeout_s`], [`Row::cpu_limit_s`], [`Row::jobs`],
    /// [`Row::exit_code`], [`Row::run`], [`Row::error`], [`Row::count_time`],
    /// [`Row::solutions`], [`Row::vars`], [`Row::clauses`], [`Row::written_trust`],
    /// [`Row::limit`]).
    pub(crate) settings: u32,
    /// The answer.
    pub status: Status,
    /// How it was checked.
    pub check: Check,
    /// True when the answer is wrong.
    pub wrong: bool,
    /// Wall-clock seconds.
    pub wall_s: f64,
    /// CPU seconds, if measured ([`Row::cpu_s`]).
    pub(crate) cpu_s: Seconds,
    /// Conflicts, decisions, propagations, guesses ([`packed_work`]).
    pub(crate) work: [u32; 4],
}

/// What a row says of its instance (one [`INSTANCES`] entry).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Instance {
    /// The corpus file as named on the command line.
    pub corpus: Name,
    /// The instance id.
    pub instance: Name,
    /// The instance's content hash (empty in old CSVs).
    pub hash: Name,
    /// sudoku, latin, pair, or cnf.
    pub kind: InstanceKind,
    /// The puzzle side (0 for DIMACS).
    pub side: u32,
    /// The instance's family.
    pub family: Name,
}

impl Instance {
    fn words(self) -> [u64; 3] {
        let kind = match self.kind {
            InstanceKind::Cnf => 0,
            InstanceKind::Puzzle(k) => {
                1 + crate::puzzle::Kind::ALL
                    .iter()
                    .position(|&x| x == k)
                    .unwrap_or(0) as u64
            }
        };
        [
            pair(self.corpus.0, self.instance.0),
            pair(self.hash.0, self.family.0),
            pair(kind as u32, self.side),
        ]
    }

    fn of_words(words: [u64; 3]) -> Instance {
        let [(corpus, instance), (hash, family), (kind, side)] = words.map(unpair);
        Instance {
            corpus: Name(corpus),
            instance: Name(instance),
            hash: Name(hash),
            kind: match kind {
                0 => InstanceKind::Cnf,
                k => InstanceKind::Puzzle(crate::puzzle::Kind::ALL[k as usize - 1]),
            },
            side,
            family: Name(family),
        }
    }
}

/// Two 32-bit numbers in one word.
fn pair(high: u32, low: u32) -> u64 {
    (u64::from(high) << 32) | u64::from(low)
}

/// The numbers [`pair`] put in one word.
fn unpair(word: u64) -> (u32, u32) {
    ((word >> 32) as u32, word as u32)
}

/// The encoding and the solver of configuration number `config` (a row's).
pub(crate) fn config_names(config: u32) -> (Name, Name) {
    let (encoding, solver) = unpair(CONFIGS.get(config)[0]);
    (Name(encoding), Name(solver))
}

/// An optional mode as a number (0: none).
fn mode_code(mode: Option<Mode>) -> u64 {
    mode.map_or(0, |m| {
        1 + Mode::ALL.iter().position(|&x| x == m).unwrap_or(0) as u64
    })
}

/// The mode of [`mode_code`]'s number.
fn mode_of(code: u64) -> Option<Mode> {
    (code > 0).then(|| Mode::ALL[code as usize - 1])
}

/// Optional seconds in 8 bytes: the bits of the `f64`, [`NO_COUNT`] for none (the
/// default), so that rows compare as the numbers' texts in the CSV do.
#[derive(Clone, Copy, PartialEq)]
pub(crate) struct Seconds(u64);

impl Seconds {
    fn of(x: Option<f64>) -> Seconds {
        Seconds(packed(x))
    }

    fn get(self) -> Option<f64> {
        unpacked(self.0)
    }
}

impl Default for Seconds {
    fn default() -> Seconds {
        Seconds(NO_COUNT)
    }
}

impl std::fmt::Debug for Seconds {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&self.get(), f)
    }
}

fn packed(x: Option<f64>) -> u64 {
    x.map_or(NO_COUNT, f64::to_bits)
}

fn unpacked(x: u64) -> Option<f64> {
    (x != NO_COUNT).then(|| f64::from_bits(x))
}

impl From<&crate::results::Row> for Row {
    fn from(r: &crate::results::Row) -> Row {
        Row::converted(r, &mut LastNames::default())
    }
}

/// The names and numbers of the row read last, in the order [`Row::converted`] takes
/// them: most columns repeat from one row to the next, and comparing a short text costs
/// less than looking it up.
#[derive(Default)]
struct LastNames {
    names: [Name; 7],
    settings: Last<7>,
    sizes: Last<2>,
    instance: Last<3>,
    config: Last<2>,
}

/// The values last stored aside and their number.
#[derive(Default)]
struct Last<const N: usize>(Option<([u64; N], u32)>);

impl<const N: usize> Last<N> {
    /// The number of `values` in `store` (looked up only when they differ from the last).
    fn number(&mut self, store: &Aside<N>, values: [u64; N]) -> u32 {
        match self.0 {
            Some((last, number)) if last == values => number,
            _ => {
                let number = store.number(values);
                self.0 = Some((values, number));
                number
            }
        }
    }
}

impl LastNames {
    /// The name of `text` in column `column`.
    fn name(&mut self, interner: &mut Interner, column: usize, text: &str) -> Name {
        let last = &mut self.names[column];
        if last.as_str() != text {
            *last = interner.intern(text);
        }
        *last
    }
}

impl Row {
    /// The report row of `r`; `last` holds the names of the previous row converted.
    fn converted(r: &crate::results::Row, last: &mut LastNames) -> Row {
        let count = |x: Option<u64>| x.unwrap_or(NO_COUNT);
        let sizes = last.sizes.number(&SIZES, [r.vars, r.clauses]);
        let counts = COUNTS.number([
            packed(r.count_wall_s),
            packed(r.count_cpu_s),
            r.solutions.map_or(NO_COUNT, u64::from),
        ]);
        // One lock for the row's names.
        let mut interner = INTERNER.lock().unwrap_or_else(|e| e.into_inner());
        let mut name = |column, text: &str| last.name(&mut interner, column, text);
        let instance = Instance {
            corpus: name(0, &r.corpus),
            instance: name(1, &r.instance),
            hash: name(2, &r.hash),
            kind: r.kind,
            side: r.side,
            family: name(6, &r.family),
        };
        let (encoding, solver, error) =
            (name(3, &r.encoding), name(4, &r.solver), name(5, &r.error));
        drop(interner);
        let settings = last.settings.number(
            &SETTINGS,
            settings(
                r.timeout_s,
                r.cpu_limit_s,
                r.jobs,
                r.exit_code,
                (r.run, error, counts, sized(sizes, r.trust, r.limit)),
            ),
        );
        Row {
            who: last.instance.number(&INSTANCES, instance.words()),
            config: last
                .config
                .number(&CONFIGS, [pair(encoding.0, solver.0), mode_code(r.mode)]),
            settings,
            status: r.status,
            check: r.check,
            wrong: r.wrong,
            wall_s: r.wall_s,
            cpu_s: Seconds::of(r.cpu_s),
            work: packed_work([
                count(r.conflicts),
                count(r.decisions),
                count(r.propagations),
                count(r.guesses),
            ]),
        }
    }
}

/// A digest of the columns of `r` the report keeps out (max_rss_kb, givens, check_s,
/// check_rss_kb), so that merging still tells a duplicate row from a clash.
pub fn digest(r: &crate::results::Row) -> u32 {
    let mut digest = FxHasher::default();
    let rest = [
        r.max_rss_kb,
        r.givens.map(u64::from),
        r.check_s.map(f64::to_bits),
        r.check_rss_kb,
    ];
    for x in rest {
        digest.write(&x.map_or([0xff; 9], |v| {
            let mut b = [0; 9];
            b[1..].copy_from_slice(&v.to_le_bytes());
            b
        }));
    }
    let digest = digest.finish();
    (digest ^ (digest >> 32)) as u32
}

impl Row {
    /// What the row says of its instance.
    pub fn who(&self) -> Instance {
        Instance::of_words(INSTANCES.get(self.who))
    }

    /// Sets what the row says of its instance.
    pub fn set_who(&mut self, who: Instance) {
        self.who = INSTANCES.number(who.words());
    }

    /// The corpus file as named on the command line.
    pub fn corpus(&self) -> Name {
        Name(unpair(INSTANCES.get(self.who)[0]).0)
    }

    /// The instance id.
    pub fn instance(&self) -> Name {
        instance_of(self.who)
    }

    /// The instance's content hash (empty in old CSVs).
    pub fn hash(&self) -> Name {
        Name(unpair(INSTANCES.get(self.who)[1]).0)
    }

    /// The instance's family.
    pub fn family(&self) -> Name {
        Name(unpair(INSTANCES.get(self.who)[1]).1)
    }

    /// sudoku, latin, pair, or cnf.
    pub fn kind(&self) -> InstanceKind {
        self.who().kind
    }

    /// The puzzle side (0 for DIMACS).
    pub fn side(&self) -> u32 {
        unpair(INSTANCES.get(self.who)[2]).1
    }

    /// The encoding.
    pub fn encoding(&self) -> Name {
        Name(unpair(CONFIGS.get(self.config)[0]).0)
    }

    /// The solver's name.
    pub fn solver(&self) -> Name {
        Name(unpair(CONFIGS.get(self.config)[0]).1)
    }

    /// How it ran.
    pub fn mode(&self) -> Option<Mode> {
        mode_of(CONFIGS.get(self.config)[1])
    }

    /// Sets the encoding, the solver and the mode.
    pub fn set_config(&mut self, encoding: &str, solver: &str, mode: Option<Mode>) {
        let (encoding, solver) = (Name::new(encoding), Name::new(solver));
        self.config = CONFIGS.number([pair(encoding.0, solver.0), mode_code(mode)]);
    }

    /// Sets the encoding.
    pub fn set_encoding(&mut self, encoding: &str) {
        self.set_config(encoding, &self.solver(), self.mode());
    }

    /// Sets the solver.
    pub fn set_solver(&mut self, solver: &str) {
        self.set_config(&self.encoding(), solver, self.mode());
    }

    /// Sets the mode.
    pub fn set_mode(&mut self, mode: Option<Mode>) {
        self.set_config(&self.encoding(), &self.solver(), mode);
    }

    /// Repetition number, from 1.
    pub fn run(&self) -> u32 {
        SETTINGS.get(self.settings)[4] as u32
    }

    /// Sets the repetition number.
    pub fn set_run(&mut self, run: u32) {
        self.set_setting(4, u64::from(run));
    }

    /// Why, for errors and wrong answers.
    pub fn error(&self) -> Name {
        Name(unpair(SETTINGS.get(self.settings)[5]).0)
    }

    /// Sets the error.
    pub fn set_error(&mut self, error: &str) {
        self.set_setting(5, pair(Name::new(error).0, self.counts()));
    }

    /// The number of a count's figures in [`COUNTS`].
    fn counts(&self) -> u32 {
        unpair(SETTINGS.get(self.settings)[5]).1
    }

    /// Sets the number of a count's figures.
    fn set_counts(&mut self, counts: u32) {
        self.set_setting(5, pair(self.error().0, counts));
    }

    /// Sets word `index` of the run's settings ([`SETTINGS`]), the others as they are.
    fn set_setting(&mut self, index: usize, word: u64) {
        let mut words = SETTINGS.get(self.settings);
        words[index] = word;
        self.settings = SETTINGS.number(words);
    }
}

impl From<crate::results::Row> for Row {
    fn from(r: crate::results::Row) -> Row {
        Row::from(&r)
    }
}

/// The report's rows of full rows.
pub fn of(rows: &[crate::results::Row]) -> Vec<Row> {
    let mut out = Vec::with_capacity(rows.len());
    extend(&mut out, rows);
    out
}

/// Appends the report rows of `rows` to `out`.
pub fn extend(out: &mut Vec<Row>, rows: &[crate::results::Row]) {
    let mut last = LastNames::default();
    out.extend(rows.iter().map(|r| Row::converted(r, &mut last)));
}

/// The instance id of instance number `who` ([`Row::instance`]).
pub(crate) fn instance_of(who: u32) -> Name {
    Name(unpair(INSTANCES.get(who)[0]).1)
}

/// Rows a report is drawn from: report rows lent as they are, or given (the report lets
/// them go once it has what it reads of them), and result rows converted.
pub trait IntoReportRows<'a> {
    /// The rows as the report holds them.
    fn into_report_rows(self) -> std::borrow::Cow<'a, [Row]>;
}

impl<'a> IntoReportRows<'a> for &'a [Row] {
    fn into_report_rows(self) -> std::borrow::Cow<'a, [Row]> {
        std::borrow::Cow::Borrowed(self)
    }
}

impl<'a> IntoReportRows<'a> for &'a Vec<Row> {
    fn into_report_rows(self) -> std::borrow::Cow<'a, [Row]> {
        std::borrow::Cow::Borrowed(self)
    }
}

impl<'a> IntoReportRows<'a> for Vec<Row> {
    fn into_report_rows(self) -> std::borrow::Cow<'a, [Row]> {
        std::borrow::Cow::Owned(self)
    }
}

impl<'a> IntoReportRows<'a> for &'a [crate::results::Row] {
    fn into_report_rows(self) -> std::borrow::Cow<'a, [Row]> {
        std::borrow::Cow::Owned(of(self))
    }
}

impl<'a> IntoReportRows<'a> for &'a Vec<crate::results::Row> {
    fn into_report_rows(self) -> std::borrow::Cow<'a, [Row]> {
        std::borrow::Cow::Owned(of(self))
    }
}

impl Row {
    /// The solver's work counters.
    pub fn work(&self) -> Work {
        let work = unpacked_work(self.work);
        let get = |i: usize| (work[i] != NO_COUNT).then_some(work[i]);
        Work {
            conflicts: get(0),
            decisions: get(1),
            propagations: get(2),
            guesses: get(3),
        }
    }

    /// One work counter, read alone (the counters in [`Counter::ALL`]'s order).
    pub fn counter(&self, counter: crate::solver::work::Counter) -> Option<u64> {
        let i = crate::solver::work::Counter::ALL
            .iter()
            .position(|&c| c == counter)
            .unwrap_or(0);
        if self.work[0] == WORK_WIDE {
            let wide = WIDE_WORK.get(self.work[1])[i];
            return (wide != NO_COUNT).then_some(wide);
        }
        (self.work[i] != WORK_NONE).then_some(u64::from(self.work[i]))
    }

    /// True when the row gives some work counter.
    pub fn has_work(&self) -> bool {
        self.work != [WORK_NONE; 4]
    }

    /// Sets the work counters.
    pub fn set_work(&mut self, work: Work) {
        let put = |x: Option<u64>| x.unwrap_or(NO_COUNT);
        self.work = packed_work([
            put(work.conflicts),
            put(work.decisions),
            put(work.propagations),
            put(work.guesses),
        ]);
    }

    /// Sets the times of a whole `--count` (wall, CPU).
    pub fn set_count_times(&mut self, wall: Option<f64>, cpu: Option<f64>) {
        let [.., solutions] = COUNTS.get(self.counts());
        self.set_counts(COUNTS.number([packed(wall), packed(cpu), solutions]));
    }

    /// With `--count N`: the solutions found.
    pub fn solutions(&self) -> Option<u32> {
        let [.., solutions] = COUNTS.get(self.counts());
        (solutions != NO_COUNT).then_some(solutions as u32)
    }

    /// Sets the solutions found.
    pub fn set_solutions(&mut self, solutions: Option<u32>) {
        let [wall, cpu, _] = COUNTS.get(self.counts());
        self.set_counts(COUNTS.number([wall, cpu, solutions.map_or(NO_COUNT, u64::from)]));
    }

    /// The wall-clock limit of the run, seconds.
    pub fn timeout_s(&self) -> f64 {
        f64::from_bits(SETTINGS.get(self.settings)[0])
    }

    /// Parallel jobs in the run.
    pub fn jobs(&self) -> u32 {
        SETTINGS.get(self.settings)[2] as u32
    }

    /// The child's exit code (external solvers).
    pub fn exit_code(&self) -> Option<i32> {
        let code = SETTINGS.get(self.settings)[3];
        (code != NO_COUNT).then_some(code as u32 as i32)
    }

    /// Sets the wall-clock limit, the CPU limit, the jobs and the exit code.
    pub fn set_settings(
        &mut self,
        timeout_s: f64,
        cpu_limit_s: Option<f64>,
        jobs: u32,
        exit: Option<i32>,
    ) {
        let extra = (self.run(), self.error(), self.counts(), self.sized());
        self.settings = SETTINGS.number(settings(timeout_s, cpu_limit_s, jobs, exit, extra));
    }

    /// Sets the wall-clock limit.
    pub fn set_timeout_s(&mut self, timeout_s: f64) {
        self.set_settings(timeout_s, self.cpu_limit_s(), self.jobs(), self.exit_code());
    }

    /// Sets the exit code.
    pub fn set_exit_code(&mut self, exit: Option<i32>) {
        self.set_settings(self.timeout_s(), self.cpu_limit_s(), self.jobs(), exit);
    }

    /// Solved and right ([`crate::results::Row::solved`]).
    pub fn solved(&self) -> bool {
        !self.wrong && self.status.is_solved()
    }

    /// How far the answer is trusted ([`crate::results::Row::trust`]).
    pub fn trust(&self) -> Trust {
        Trust::of(self.written_trust(), self.status, self.check, self.wrong)
    }

    /// Solved, right and certified.
    pub fn certified(&self) -> bool {
        self.solved() && self.trust().certified()
    }

    /// The run's time on `basis` ([`crate::results::Row::time`]).
    pub fn time(&self, basis: TimeBasis) -> f64 {
        basis.pick(self.cpu_s(), self.wall_s)
    }

    /// CPU seconds, if measured.
    pub fn cpu_s(&self) -> Option<f64> {
        self.cpu_s.get()
    }

    /// Sets the CPU seconds.
    pub fn set_cpu_s(&mut self, cpu: Option<f64>) {
        self.cpu_s = Seconds::of(cpu);
    }

    /// The CPU-time limit of the run, seconds.
    pub fn cpu_limit_s(&self) -> Option<f64> {
        unpacked(SETTINGS.get(self.settings)[1])
    }

    /// Sets the CPU-time limit.
    pub fn set_cpu_limit_s(&mut self, limit: Option<f64>) {
        self.set_settings(self.timeout_s(), limit, self.jobs(), self.exit_code());
    }

    /// The time of the whole `--count` on `basis`, if the run counted.
    pub fn count_time(&self, basis: TimeBasis) -> Option<f64> {
        let [wall, cpu, _] = COUNTS.get(self.counts());
        basis.pick_opt(unpacked(cpu), unpacked(wall))
    }

    /// The last word of the settings ([`sized`]).
    fn sized(&self) -> u64 {
        SETTINGS.get(self.settings)[6]
    }

    /// Variables in the CNF.
    pub fn vars(&self) -> u64 {
        SIZES.get(unpair(self.sized()).0)[0]
    }

    /// Clauses in the CNF.
    pub fn clauses(&self) -> u64 {
        SIZES.get(unpair(self.sized()).0)[1]
    }

    /// How far the answer is trusted, as written (None in old CSVs; see [`Row::trust`]).
    pub fn written_trust(&self) -> Option<Trust> {
        verdict_of(unpair(self.sized()).1).0
    }

    /// Which limit ended the run.
    pub fn limit(&self) -> Option<LimitHit> {
        verdict_of(unpair(self.sized()).1).1
    }

    /// Sets the trust as written.
    pub fn set_written_trust(&mut self, trust: Option<Trust>) {
        let (sizes, code) = unpair(self.sized());
        self.set_setting(6, sized(sizes, trust, verdict_of(code).1));
    }

    /// Sets the limit that ended the run.
    pub fn set_limit(&mut self, limit: Option<LimitHit>) {
        let (sizes, code) = unpair(self.sized());
        self.set_setting(6, sized(sizes, verdict_of(code).0, limit));
    }

    /// What the instance is, for every join: its hash, or its id without one.
    pub fn instance_key(&self) -> &'static str {
        self.instance_name().as_str()
    }

    /// [`Row::instance_key`] as a name.
    pub fn instance_name(&self) -> Name {
        let [corpus_and_id, hash_and_family, _] = INSTANCES.get(self.who);
        let (hash, id) = (unpair(hash_and_family).0, unpair(corpus_and_id).1);
        Name(if hash == EMPTY.0 { id } else { hash })
    }

    /// What identifies a run ([`crate::results::Row::key`]).
    pub fn key(&self) -> Key<'static> {
        (
            self.instance_key(),
            self.encoding().as_str(),
            self.solver().as_str(),
            self.run(),
        )
    }
}

/// Reads a results CSV a row at a time into report rows (strictly: a bad row is an error
/// naming `file:line`), cross-checked as [`crate::results::read_rows`] does, with each
/// row's [`digest`] (for merging: a row's columns kept out).
pub fn read(path: &Path) -> anyhow::Result<(Vec<Row>, Vec<u32>)> {
    let name = path.display().to_string();
    let file = std::fs::File::open(path).with_context(|| format!("reading {name}"))?;
    let (mut rows, mut digests) = (Vec::new(), Vec::new());
    let mut last = LastNames::default();
    crate::results::each_row(std::io::BufReader::new(file), &name, |row| {
        rows.push(Row::converted(&row, &mut last));
        digests.push(digest(&row));
        Ok(())
    })?;
    rows.shrink_to_fit();
    digests.shrink_to_fit();
    crate::results::cross_check_unsat(&mut rows);
    Ok((rows, digests))
}

impl crate::results::CrossChecked for Row {
    type Name<'a> = Name;
    fn instance_name(&self) -> Name {
        Row::instance_name(self)
    }
    fn encoding_name(&self) -> Name {
        Row::encoding(self)
    }
    fn status(&self) -> Status {
        self.status
    }
    fn check(&self) -> Check {
        self.check
    }
    fn wrong(&self) -> bool {
        self.wrong
    }
    fn instance_key(&self) -> &str {
        Row::instance_key(self)
    }
    fn encoding(&self) -> &str {
        Row::encoding(self).as_str()
    }
    fn solver(&self) -> &str {
        Row::solver(self).as_str()
    }
    fn mark_wrong(&mut self, why: &str) {
        self.wrong = true;
        self.set_written_trust(Some(Trust::Unchecked));
        let mut error = self.error().to_string();
        if !error.is_empty() {
            error.push_str("; ");
        }
        error.push_str(why);
        self.set_error(&error);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_interned_and_ordered_by_text() {
        let (a, b) = (Name::new("minisat"), Name::new(&String::from("minisat")));
        assert_eq!(a, b);
        assert!(std::ptr::eq(a.as_str(), b.as_str()));
        assert!(Name::new("cadical") < a && a == "minisat");
        assert_eq!(Name::default().as_str(), "");
        let long = "x".repeat(5000);
        assert_eq!(Name::new(&long).as_str(), long);
    }

    #[test]
    fn a_rows_trust_limit_and_size_come_back_as_written() {
        let limits = [
            None,
            Some(LimitHit::Wall),
            Some(LimitHit::Cpu),
            Some(LimitHit::Memory),
        ];
        let trusts = std::iter::once(None).chain(Trust::ALL.map(Some));
        for trust in trusts {
            for limit in limits {
                let mut full = crate::report::test_rows::full_row("i1", "minimal", "a", "SAT", 1.5);
                (full.trust, full.limit, full.vars, full.clauses) = (trust, limit, 12, 34);
                let mut row = Row::from(&full);
                assert_eq!((row.written_trust(), row.limit()), (trust, limit));
                assert_eq!((row.vars(), row.clauses()), (12, 34));
                row.set_run(3);
                row.set_error("why");
                assert_eq!((row.written_trust(), row.limit()), (trust, limit));
                assert_eq!((row.vars(), row.clauses(), row.run()), (12, 34, 3));
                row.set_limit(None);
                assert_eq!((row.written_trust(), row.limit()), (trust, None));
            }
        }
    }

    #[test]
    fn a_row_keeps_what_the_report_reads() {
        let mut full = crate::report::test_rows::full_row("i1", "minimal", "a", "SAT", 1.5);
        full.conflicts = Some(7);
        full.propagations = Some(u64::from(u32::MAX) + 5);
        full.count_cpu_s = Some(2.0);
        let row = Row::from(&full);
        assert_eq!(row.work(), full.work());
        assert_eq!(Row::from(&full), row, "wide counters are stored once");
        let mut narrow = full.clone();
        narrow.propagations = Some(u64::from(u32::MAX) - 2);
        assert_eq!(Row::from(&narrow).work(), narrow.work());
        assert_ne!(Row::from(&narrow), row);
        assert_eq!(row.key(), full.key());
        assert_eq!(row.count_time(TimeBasis::Cpu), Some(2.0));
        assert_eq!(row.count_time(TimeBasis::Wall), None);
        assert_eq!(row.time(TimeBasis::Cpu), full.time(TimeBasis::Cpu));
        assert_eq!(Row::from(&full), row, "rows compare by value");
        let mut other = full.clone();
        other.max_rss_kb = Some(1);
        assert_eq!(
            Row::from(&other),
            row,
            "a column kept out is not in the row"
        );
        assert_ne!(
            digest(&other),
            digest(&full),
            "its digest still tells rows apart"
        );
        let (small, full) = (
            std::mem::size_of::<Row>(),
            std::mem::size_of::<crate::results::Row>(),
        );
        assert!(small <= 48, "{small} bytes against {full}");
    }
}
