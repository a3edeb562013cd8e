//! The pixel buffer a frame is drawn into, and the one drawing primitive
//! everything else is made of: filling a rectangle, clipped to the frame.
//!
//! Filling works a row at a time on the buffer's slices, so drawing
//! allocates nothing: a frame costs its one buffer, whatever it shows.

/// A colour: red, green, blue.
pub type Rgb = [u8; 3];

/// A rectangle of pixels: left, top, width, height. Coordinates are
/// unsigned, and [`Canvas::fill`] clips, so no rectangle can reach
/// outside the frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Rect {
    pub x: usize,
    pub y: usize,
    pub w: usize,
    pub h: usize,
}

impl Rect {
    pub const fn new(x: usize, y: usize, w: usize, h: usize) -> Rect {
        Rect { x, y, w, h }
    }

    /// One past the last column.
    pub const fn right(self) -> usize {
        self.x + self.w
    }

    /// One past the last row.
    pub const fn bottom(self) -> usize {
        self.y + self.h
    }

    /// The pixels in both rectangles (empty, `w` or `h` 0, when none).
    pub fn intersect(self, other: Rect) -> Rect {
        let x = self.x.max(other.x);
        let y = self.y.max(other.y);
        let right = self.right().min(other.right()).max(x);
        let bottom = self.bottom().min(other.bottom()).max(y);
        Rect::new(x, y, right - x, bottom - y)
    }

    /// The rectangle `by` pixels smaller on every side.
    pub fn inset(self, by: usize) -> Rect {
        Rect::new(
            self.x + by,
            self.y + by,
            self.w.saturating_sub(2 * by),
            self.h.saturating_sub(2 * by),
        )
    }
}

/// An RGB frame, row-major, three bytes a pixel.
pub(super) struct Canvas {
    pixels: Vec<u8>,
    width: usize,
    height: usize,
}

impl Canvas {
    /// A `width` x `height` frame of `background`: the frame's only
    /// allocation.
    pub fn new(width: usize, height: usize, background: Rgb) -> Canvas {
        let mut pixels = vec![0; width * height * 3];
        for pixel in pixels.chunks_exact_mut(3) {
            pixel.copy_from_slice(&background);
        }
        Canvas {
            pixels,
            width,
            height,
        }
    }

    /// The whole frame as a rectangle.
    pub fn bounds(&self) -> Rect {
        Rect::new(0, 0, self.width, self.height)
    }

    /// Paints `rect` (clipped to the frame) in `color`.
    pub fn fill(&mut self, rect: Rect, color: Rgb) {
        let rect = rect.intersect(self.bounds());
        if rect.w == 0 {
            return;
        }
        for y in rect.y..rect.bottom() {
            let start = (y * self.width + rect.x) * 3;
            let row = &mut self.pixels[start..start + rect.w * 3];
            for pixel in row.chunks_exact_mut(3) {
                pixel.copy_from_slice(&color);
            }
        }
    }

    /// Paints a frame `thickness` pixels wide just inside `rect`.
    pub fn border(&mut self, rect: Rect, thickness: usize, color: Rgb) {
        let t = thickness.min(rect.w).min(rect.h);
        self.fill(Rect::new(rect.x, rect.y, rect.w, t), color);
        self.fill(Rect::new(rect.x, rect.bottom() - t, rect.w, t), color);
        self.fill(Rect::new(rect.x, rect.y, t, rect.h), color);
        self.fill(Rect::new(rect.right() - t, rect.y, t, rect.h), color);
    }

    pub fn into_pixels(self) -> Vec<u8> {
        self.pixels
    }
}
