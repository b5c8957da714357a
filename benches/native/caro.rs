//! Caro as a hand-written native program: 15×15, exactly five wins, not when blocked at both
//! ends by the opponent; a full board is a draw.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::Reference;

const N: usize = 15;

/// A reusable board.
pub struct Caro {
    board: [u8; N * N],
    empty: Vec<u16>,
}

impl Default for Caro {
    fn default() -> Self {
        Caro {
            board: [0; N * N],
            empty: Vec::with_capacity(N * N),
        }
    }
}

impl Caro {
    fn stone(&self, x: i32, y: i32) -> Option<u8> {
        (x >= 0 && y >= 0 && (x as usize) < N && (y as usize) < N)
            .then(|| self.board[y as usize * N + x as usize])
    }

    fn wins(&self, at: usize) -> bool {
        let (x, y) = ((at % N) as i32, (at / N) as i32);
        let me = self.board[at];
        for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
            let mut fwd = 1;
            while self.stone(x + dx * fwd, y + dy * fwd) == Some(me) {
                fwd += 1;
            }
            let mut back = 1;
            while self.stone(x - dx * back, y - dy * back) == Some(me) {
                back += 1;
            }
            if fwd + back - 1 != 5 {
                continue;
            }
            let open = |s: Option<u8>| s.is_none_or(|v| v == 0);
            if open(self.stone(x + dx * fwd, y + dy * fwd))
                || open(self.stone(x - dx * back, y - dy * back))
            {
                return true;
            }
        }
        false
    }
}

impl Reference for Caro {
    fn playout(&mut self, rng: &mut ChaCha8Rng) -> usize {
        self.board = [0; N * N];
        self.empty.clear();
        self.empty.extend(0..(N * N) as u16);
        let mut player = 1;
        let mut plies = 0;
        while !self.empty.is_empty() {
            let at = self
                .empty
                .swap_remove(rng.random_range(0..self.empty.len())) as usize;
            self.board[at] = player;
            plies += 1;
            if self.wins(at) {
                break;
            }
            player = 3 - player;
        }
        plies
    }
}
