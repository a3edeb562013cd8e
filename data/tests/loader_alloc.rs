//! A warm loader allocates nothing per position: the allocations of a
//! batch do not grow with its size. (Its own test binary: it installs a
//! counting global allocator.)

mod support;

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use heterodox_data::loader::{Loader, LoaderConfig};
use heterodox_env::{GameVariant, Hostage, RuleOptions, Traitor};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The fewest allocations over a few warm `fill_batch` calls of `size` rows.
fn allocations<P: GameVariant>(loader: &mut Loader<P>, size: usize) -> usize {
    let mut batch = loader.new_batch(size);
    loader.fill_batch(&mut batch).unwrap(); // warm: scratch buffers
    (0..5)
        .map(|_| {
            let before = ALLOCATIONS.load(Ordering::Relaxed);
            loader.fill_batch(&mut batch).unwrap();
            ALLOCATIONS.load(Ordering::Relaxed) - before
        })
        .min()
        .unwrap()
}

fn check<P: GameVariant>(rules: P::Rules, history: usize) {
    let records = support::random_records::<P>(&rules, 6, 150);
    let config = LoaderConfig::default().with_history(history);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    pool.install(|| {
        let mut loader = Loader::<P>::new(rules, records, &config).unwrap();
        let small = allocations(&mut loader, 8);
        let large = allocations(&mut loader, 512);
        assert!(
            large <= small,
            "{} T={history}: {small} allocations for 8 rows, {large} for 512",
            P::VARIANT
        );
        assert!(
            large <= 4,
            "{} T={history}: {large} allocations per batch",
            P::VARIANT
        );
    });
}

#[test]
fn a_warm_loader_allocates_nothing_per_position() {
    check::<Hostage>((), 1);
    check::<Hostage>((), 8);
    let traitor = Traitor::parse_rules(&RuleOptions::new()).unwrap();
    check::<Traitor>(traitor, 4);
}
