//! Generates the attack tables once, at build time: leaper tables, the
//! squares between and on a line through two squares, and "fancy" magic
//! bitboards for rooks and bishops (found with a fixed-seed generator, so the
//! build is reproducible). The result is `include!`d by `src/attacks.rs`.

use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;

const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const KNIGHT_DELTAS: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const KING_DELTAS: [(i32, i32); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

fn square(file: i32, rank: i32) -> Option<u32> {
    ((0..8).contains(&file) && (0..8).contains(&rank)).then(|| (rank * 8 + file) as u32)
}

fn leaper(sq: u32, deltas: &[(i32, i32)]) -> u64 {
    let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
    deltas
        .iter()
        .filter_map(|&(df, dr)| square(f + df, r + dr))
        .fold(0, |bb, s| bb | 1 << s)
}

/// Slider attacks by walking each ray until a blocker (included) or the edge.
fn slide(sq: u32, dirs: &[(i32, i32)], occupied: u64) -> u64 {
    let mut attacks = 0;
    for &(df, dr) in dirs {
        let (mut f, mut r) = ((sq % 8) as i32 + df, (sq / 8) as i32 + dr);
        while let Some(s) = square(f, r) {
            attacks |= 1 << s;
            if occupied & (1 << s) != 0 {
                break;
            }
            f += df;
            r += dr;
        }
    }
    attacks
}

/// The relevant occupancy mask: the rays without their last square.
fn relevant_mask(sq: u32, dirs: &[(i32, i32)]) -> u64 {
    let mut mask = 0;
    for &(df, dr) in dirs {
        let (mut f, mut r) = ((sq % 8) as i32 + df, (sq / 8) as i32 + dr);
        while square(f + df, r + dr).is_some() {
            mask |= 1 << square(f, r).unwrap();
            f += df;
            r += dr;
        }
    }
    mask
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

struct Magic {
    mask: u64,
    factor: u64,
    shift: u32,
    offset: usize,
}

/// Finds a magic factor for every square and fills the shared table.
fn find_magics(dirs: &[(i32, i32)], rng: &mut Rng, table: &mut Vec<u64>) -> Vec<Magic> {
    let mut magics = Vec::with_capacity(64);
    for sq in 0..64 {
        let mask = relevant_mask(sq, dirs);
        let bits = mask.count_ones();
        let size = 1usize << bits;
        // Enumerate every subset of the mask (Carry-Rippler trick).
        let mut occupancies = Vec::with_capacity(size);
        let mut subset = 0u64;
        loop {
            occupancies.push((subset, slide(sq, dirs, subset)));
            subset = subset.wrapping_sub(mask) & mask;
            if subset == 0 {
                break;
            }
        }
        let shift = 64 - bits;
        let mut slots = vec![0u64; size];
        let mut used = vec![0u32; size];
        let mut epoch = 0u32;
        let factor = loop {
            let factor = rng.sparse();
            if (mask.wrapping_mul(factor) >> 56).count_ones() < 6 {
                continue;
            }
            epoch += 1;
            let ok = occupancies.iter().all(|&(occ, attacks)| {
                let index = (occ.wrapping_mul(factor) >> shift) as usize;
                if used[index] != epoch {
                    used[index] = epoch;
                    slots[index] = attacks;
                    true
                } else {
                    slots[index] == attacks
                }
            });
            if ok {
                break factor;
            }
        };
        let offset = table.len();
        table.extend_from_slice(&slots);
        magics.push(Magic {
            mask,
            factor,
            shift,
            offset,
        });
    }
    magics
}

fn write_array(out: &mut String, name: &str, values: &[u64]) {
    writeln!(out, "static {name}: [u64; {}] = [", values.len()).unwrap();
    for chunk in values.chunks(8) {
        let line: Vec<String> = chunk.iter().map(|v| format!("{v:#018x}")).collect();
        writeln!(out, "    {},", line.join(", ")).unwrap();
    }
    writeln!(out, "];").unwrap();
}

fn write_magics(out: &mut String, name: &str, magics: &[Magic]) {
    writeln!(out, "static {name}: [Magic; 64] = [").unwrap();
    for m in magics {
        writeln!(
            out,
            "    Magic {{ mask: {:#018x}, factor: {:#018x}, shift: {}, offset: {} }},",
            m.mask, m.factor, m.shift, m.offset
        )
        .unwrap();
    }
    writeln!(out, "];").unwrap();
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");

    let knight: Vec<u64> = (0..64).map(|sq| leaper(sq, &KNIGHT_DELTAS)).collect();
    let king: Vec<u64> = (0..64).map(|sq| leaper(sq, &KING_DELTAS)).collect();
    let white_pawn: Vec<u64> = (0..64).map(|sq| leaper(sq, &[(-1, 1), (1, 1)])).collect();
    let black_pawn: Vec<u64> = (0..64).map(|sq| leaper(sq, &[(-1, -1), (1, -1)])).collect();

    let mut between = Vec::with_capacity(64 * 64);
    let mut line = Vec::with_capacity(64 * 64);
    for a in 0..64u32 {
        for b in 0..64u32 {
            let (mut bt, mut ln) = (0, 0);
            for dirs in [&ROOK_DIRS[..], &BISHOP_DIRS[..]] {
                if a != b && slide(a, dirs, 0) & (1 << b) != 0 {
                    bt = slide(a, dirs, 1 << b) & slide(b, dirs, 1 << a);
                    ln = (slide(a, dirs, 0) & slide(b, dirs, 0)) | (1 << a) | (1 << b);
                }
            }
            between.push(bt);
            line.push(ln);
        }
    }

    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut table = Vec::new();
    let rook = find_magics(&ROOK_DIRS, &mut rng, &mut table);
    let bishop = find_magics(&BISHOP_DIRS, &mut rng, &mut table);

    let mut out = String::with_capacity(3 << 20);
    writeln!(out, "// @generated by env/build.rs: do not edit.").unwrap();
    write_array(&mut out, "KNIGHT_ATTACKS", &knight);
    write_array(&mut out, "KING_ATTACKS", &king);
    write_array(&mut out, "WHITE_PAWN_ATTACKS", &white_pawn);
    write_array(&mut out, "BLACK_PAWN_ATTACKS", &black_pawn);
    write_array(&mut out, "BETWEEN", &between);
    write_array(&mut out, "LINE", &line);
    write_magics(&mut out, "ROOK_MAGICS", &rook);
    write_magics(&mut out, "BISHOP_MAGICS", &bishop);
    write_array(&mut out, "SLIDER_ATTACKS", &table);

    let dest = Path::new(&env::var("OUT_DIR").unwrap()).join("attack_tables.rs");
    fs::write(dest, out).unwrap();
}
