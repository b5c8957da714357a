//! Unit tests of the native sowing family: moves, captures, the end, and its search.

use std::time::Duration;

use rand::SeedableRng;

use super::{search::SearchLimits, *};

/// Two-direction sowing with relays and chain captures on a ring of two sides of five houses,
/// each followed by a store holding a big piece worth 10.
const CHAIN: SowingRules = SowingRules {
    both_directions: true,
    skip_origin: true,
    relay: true,
    capture: Capture::EmptyThenNext,
    protect_below: 0,
    must_feed: false,
    refill: true,
    borrow: true,
    end: End::StoresEmpty,
    repetition: false,
    collect: false,
};

/// One-direction sowing, captures of 2s and 3s, feeding, the end by majority or repetition.
const COUNTS: SowingRules = SowingRules {
    both_directions: false,
    skip_origin: true,
    relay: false,
    capture: Capture::Counts {
        counts: 0b1100,
        grand_slam: true,
    },
    protect_below: 0,
    must_feed: true,
    refill: false,
    borrow: false,
    end: End::Majority,
    repetition: true,
    collect: true,
};

fn chain_ring(values: [i64; 12], scores: [i64; 2], to_move: usize) -> Sowing {
    let mut track = Track::new(12, 0);
    for (pit, &v) in values.iter().enumerate() {
        track.set(pit, v);
        track.set_owner(pit, (pit / 6) as i64);
    }
    let stores = [5, 11];
    Sowing::new(
        CHAIN,
        Setup {
            track: &track,
            houses: (0..12).map(|p| !stores.contains(&p)).collect(),
            pieces: ((0..12).map(|p| stores.contains(&p)).collect(), 10),
            scores: scores.to_vec(),
            to_move,
            seen: Vec::new(),
        },
    )
    .unwrap()
}

fn counts_ring(values: [i64; 12], scores: [i64; 2], to_move: usize) -> Sowing {
    let mut track = Track::new(12, 0);
    for (pit, &v) in values.iter().enumerate() {
        track.set(pit, v);
        track.set_owner(pit, (pit / 6) as i64);
    }
    Sowing::new(
        COUNTS,
        Setup {
            track: &track,
            houses: vec![true; 12],
            pieces: (vec![false; 12], 0),
            scores: scores.to_vec(),
            to_move,
            seen: Vec::new(),
        },
    )
    .unwrap()
}

fn mv(pit: usize, dir: i64) -> SowMove {
    SowMove { pit, dir }
}

#[test]
fn relays_and_capture_chains() {
    let mut pos = chain_ring([5, 5, 5, 5, 5, 10, 5, 5, 5, 5, 5, 10], [0, 0], 0);
    pos.play(mv(2, 1)).unwrap();
    assert_eq!(pos.seeds(), &[6, 6, 0, 0, 6, 11, 6, 6, 0, 6, 6, 11]);
    assert_eq!(pos.scores(), &[6, 0]);
    pos.play(mv(9, -1)).unwrap();
    assert_eq!(pos.seeds(), &[6, 0, 0, 1, 7, 12, 7, 7, 1, 0, 6, 11]);
    assert_eq!(pos.scores(), &[6, 6]);
    // A relay, then a chain of two captures, the second a store with its big piece.
    pos.play(mv(4, 1)).unwrap();
    assert_eq!(pos.seeds(), &[2, 3, 3, 4, 0, 0, 0, 0, 4, 3, 9, 14]);
    assert_eq!(pos.scores(), &[22, 6]);
    assert!(!pos.pieces[5] && pos.pieces[11]);
}

#[test]
fn a_store_with_its_piece_and_too_few_seeds_is_protected() {
    // Sowing 1 from pit 2 ends in pit 3; pit 4 is empty, so the store 5 (piece + 2) is taken…
    let start = chain_ring([0, 0, 1, 0, 0, 12, 1, 1, 1, 1, 1, 10], [0, 0], 0);
    let mut pos = start.clone();
    pos.play(mv(2, 1)).unwrap();
    assert_eq!(pos.scores(), &[12, 0]);
    assert!(!pos.pieces[5]);
    // … unless a store holding its piece needs 5 seeds besides it.
    let mut pos = start.clone();
    pos.rules.protect_below = 5;
    pos.play(mv(2, 1)).unwrap();
    assert_eq!(pos.scores(), &[0, 0]);
    assert_eq!(pos.seeds()[5], 12);
}

#[test]
fn an_empty_side_refills_from_the_score_or_has_no_move() {
    let pos = chain_ring([0, 0, 2, 1, 6, 20, 0, 0, 0, 0, 0, 19], [21, 1], 1);
    assert_eq!(pos.legal_moves().len(), 10, "every house after the refill");
    let mut after = pos.clone();
    after.play(mv(6, 1)).unwrap();
    // 1 in each house (score 1 − 5), then 6 → 7, relays from 8 and 10, ending before pit 0.
    assert_eq!(after.seeds(), &[0, 0, 2, 1, 6, 20, 0, 2, 0, 2, 0, 20]);
    assert_eq!(after.scores(), &[21, -4]);
    let mut strict = pos.clone();
    strict.rules.borrow = false;
    assert!(strict.legal_moves().is_empty());
    assert_eq!(strict.outcome(), Some(Outcome::Win(0)));
}

#[test]
fn counts_capture_backwards_but_not_a_grand_slam() {
    // The last seed lands in pit 8 (holding 2 then): 8 and 7 are taken, 6 (4 seeds) stops it.
    let mut pos = counts_ring([0, 0, 0, 0, 0, 3, 3, 1, 1, 0, 0, 5], [0, 0], 0);
    pos.play(mv(5, 1)).unwrap();
    assert_eq!(pos.seeds(), &[0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 5]);
    assert_eq!(pos.scores(), &[4, 0]);
    // Taking 7 and 6 would leave the side empty: nothing is taken.
    let mut pos = counts_ring([1, 0, 0, 0, 0, 2, 1, 2, 0, 0, 0, 0], [20, 22], 0);
    pos.play(mv(5, 1)).unwrap();
    assert_eq!(pos.seeds(), &[1, 0, 0, 0, 0, 0, 2, 3, 0, 0, 0, 0]);
    assert_eq!(pos.scores(), &[20, 22]);
}

#[test]
fn a_starving_opponent_must_be_fed() {
    let pos = counts_ring([0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0], [23, 23], 0);
    assert_eq!(pos.legal_moves(), vec![mv(5, 1)]);
    let stuck = counts_ring([1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], [23, 24], 0);
    assert!(stuck.legal_moves().is_empty());
}

#[test]
fn a_repeated_position_ends_the_game_and_each_side_collects() {
    let mut pos = counts_ring([0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1], [23, 23], 0);
    let mut fresh = pos.clone();
    fresh.play(mv(5, 1)).unwrap();
    assert_eq!(fresh.outcome(), None);
    // Had the position after the move been seen before, the game ends: player 1 collects 2.
    pos.seen = [fresh.seeds.clone(), vec![1]].concat();
    pos.play(mv(5, 1)).unwrap();
    assert_eq!(pos.seeds(), &[0; 12]);
    assert_eq!(pos.scores(), &[23, 25]);
    assert_eq!(pos.outcome(), Some(Outcome::Win(1)));
}

#[test]
fn illegal_moves_change_nothing_and_playouts_end() {
    let start = chain_ring([5, 5, 5, 5, 5, 10, 5, 5, 5, 5, 5, 10], [0, 0], 0);
    let mut pos = start.clone();
    assert!(pos.play(mv(6, 1)).is_err());
    assert!(pos.play(mv(5, 1)).is_err());
    assert_eq!(pos, start);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(4);
    for _ in 0..200 {
        let mut game = start.clone();
        let (outcome, plies) = game.random_playout(&mut rng, 10_000);
        assert!(outcome.is_some() && plies < 10_000);
        let on_board: i64 = game.seeds().iter().sum::<i64>() + game.scores().iter().sum::<i64>();
        assert_eq!(on_board, 70, "seeds are conserved");
    }
}

#[test]
fn search_takes_a_capture_and_sees_a_win() {
    let limits = SearchLimits {
        time: Duration::from_millis(200),
        max_depth: 1,
        seed: 1,
    };
    let pos = counts_ring([0, 0, 0, 1, 0, 3, 3, 1, 1, 0, 0, 5], [0, 0], 0);
    let found = pos.best_move(&[1, 0], limits).unwrap();
    assert_eq!(found.mv, mv(5, 1));
    // Taking the 2 in pit 6 gives player 0 more than half of the 48 seeds.
    let pos = counts_ring([0, 0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0], [23, 21], 0);
    let found = pos.best_move(&[1, 0], limits).unwrap();
    assert_eq!(found.mv, mv(5, 1));
    assert!(found.score >= search::WIN / 2, "{found:?}");
}
