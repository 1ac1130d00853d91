//! The cards' faces and their shared back, as textures.

use super::*;

/// A card's face as a texture, at the table's size.
pub(super) fn face_image(card: &Card) -> Option<Image> {
    card_face(card, FACE_W, FACE_H)
}

/// The back every card shares: deep blue with a bright frame and a
/// diamond in the middle.
pub(super) fn back_image() -> Image {
    let (w, h) = (64u32, 90u32);
    let mut rgba = Vec::with_capacity((w * h * 4) as usize);
    for y in 0..h {
        for x in 0..w {
            let edge = x < 4 || y < 4 || x >= w - 4 || y >= h - 4;
            let (dx, dy) = (
                (x as f32 - w as f32 / 2.0).abs() / (w as f32 / 2.0),
                (y as f32 - h as f32 / 2.0).abs() / (h as f32 / 2.0),
            );
            let diamond = dx + dy < 0.55 && dx + dy > 0.42;
            let c = if edge {
                [230, 236, 245]
            } else if diamond {
                [90, 200, 255]
            } else {
                [18, 40, 92]
            };
            rgba.extend_from_slice(&[c[0], c[1], c[2], 255]);
        }
    }
    texture(w, h, rgba)
}

/// A card's face as the table lights it: a little below white, so it does
/// not bloom.
pub(super) fn lit(image: Handle<Image>) -> CardFace {
    CardFace {
        tint: Vec4::new(0.6, 0.6, 0.64, 1.0),
        image,
    }
}

/// Every card of every deck gets its face once.
pub(super) fn spawn_faces<R: Tabled>(
    commands: &mut Commands,
    game: &TableGame<R>,
    cards: &CardSet,
    (meshes, images, materials): (&mut Assets<Mesh>, &mut Assets<Image>, &mut Assets<CardFace>),
) {
    let back = materials.add(lit(images.add(back_image())));
    let mut faces = HashMap::new();
    let extra = R::extra_cards(&game.replay.setup);
    for n in R::seat_cards(&game.replay.setup).iter().flatten() {
        if faces.contains_key(n) {
            continue;
        }
        let card = cards
            .get(n)
            .or_else(|| extra.iter().find(|c| c.number() == *n));
        if let Some(img) = card.and_then(face_image) {
            faces.insert(*n, materials.add(lit(images.add(img))));
        }
    }
    commands.insert_resource(Faces {
        quad: meshes.add(Rectangle::from_size(CARD)),
        back,
        faces,
    });
}
