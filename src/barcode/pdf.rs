//! A minimal PDF writer: one full-page RGB image per page (Flate-compressed),
//! written page by page, so a thousand cards never sit in memory at once.

use std::io::Write;

use image::RgbImage;

/// Writes a PDF to `out` a page at a time: [`Pdf::page`] for each picture,
/// then [`Pdf::finish`]. Only the objects' offsets are kept.
pub struct Pdf<'w> {
    out: &'w mut dyn Write,
    written: u64,
    /// Each object's offset, by number − 1 (1 and 2, the catalog and the
    /// page tree, are written last).
    offsets: Vec<u64>,
    pages: Vec<usize>,
    dpi: u32,
}

impl<'w> Pdf<'w> {
    /// Starts a PDF whose pages are pictures of `dpi` dots per inch.
    pub fn new(out: &'w mut dyn Write, dpi: u32) -> std::io::Result<Pdf<'w>> {
        let mut pdf = Pdf {
            out,
            written: 0,
            offsets: vec![0, 0],
            pages: Vec::new(),
            dpi: dpi.max(1),
        };
        pdf.raw(b"%PDF-1.4\n%\xE2\xE3\xCF\xD3\n")?;
        Ok(pdf)
    }

    fn raw(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.out.write_all(bytes)?;
        self.written += bytes.len() as u64;
        Ok(())
    }

    /// Writes object `number` (1-based) with this body.
    fn object(&mut self, number: usize, body: &[u8]) -> std::io::Result<()> {
        if self.offsets.len() < number {
            self.offsets.resize(number, 0);
        }
        self.offsets[number - 1] = self.written;
        self.raw(format!("{number} 0 obj\n").as_bytes())?;
        self.raw(body)?;
        self.raw(b"\nendobj\n")
    }

    /// Adds a page showing `img` over the whole page.
    pub fn page(&mut self, img: &RgbImage) -> std::io::Result<()> {
        let page = self.offsets.len() + 1;
        let (contents, image) = (page + 1, page + 2);
        let i = self.pages.len();
        let wpt = f64::from(img.width()) * 72.0 / f64::from(self.dpi);
        let hpt = f64::from(img.height()) * 72.0 / f64::from(self.dpi);
        self.object(
            page,
            format!(
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {wpt:.2} {hpt:.2}] \
                 /Resources << /XObject << /Im{i} {image} 0 R >> >> /Contents {contents} 0 R >>"
            )
            .as_bytes(),
        )?;
        let draw = format!("q {wpt:.2} 0 0 {hpt:.2} 0 0 cm /Im{i} Do Q");
        self.object(
            contents,
            format!("<< /Length {} >>\nstream\n{draw}\nendstream", draw.len()).as_bytes(),
        )?;
        let data = miniz_oxide::deflate::compress_to_vec_zlib(img.as_raw(), 6);
        let mut body = format!(
            "<< /Type /XObject /Subtype /Image /Width {} /Height {} /ColorSpace /DeviceRGB \
             /BitsPerComponent 8 /Filter /FlateDecode /Length {} >>\nstream\n",
            img.width(),
            img.height(),
            data.len()
        )
        .into_bytes();
        body.extend_from_slice(&data);
        body.extend_from_slice(b"\nendstream");
        self.object(image, &body)?;
        self.pages.push(page);
        Ok(())
    }

    /// Writes the catalog, the page tree and the cross-reference table.
    pub fn finish(mut self) -> std::io::Result<()> {
        self.object(1, b"<< /Type /Catalog /Pages 2 0 R >>")?;
        let kids: Vec<String> = self.pages.iter().map(|p| format!("{p} 0 R")).collect();
        let tree = format!(
            "<< /Type /Pages /Kids [{}] /Count {} >>",
            kids.join(" "),
            self.pages.len()
        );
        self.object(2, tree.as_bytes())?;
        let xref = self.written;
        let mut table = format!("xref\n0 {}\n0000000000 65535 f \n", self.offsets.len() + 1);
        for o in &self.offsets {
            table.push_str(&format!("{o:010} 00000 n \n"));
        }
        table.push_str(&format!(
            "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
            self.offsets.len() + 1
        ));
        self.raw(table.as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_object_is_where_the_table_says() {
        let mut bytes = Vec::new();
        let mut pdf = Pdf::new(&mut bytes, 300).unwrap();
        for shade in [0u8, 128] {
            pdf.page(&RgbImage::from_pixel(30, 20, image::Rgb([shade; 3])))
                .unwrap();
        }
        pdf.finish().unwrap();
        let find = |needle: &[u8]| bytes.windows(needle.len()).rposition(|w| w == needle);
        assert!(bytes.starts_with(b"%PDF-1.4"));
        assert!(find(b"/Kids [3 0 R 6 0 R] /Count 2").is_some());
        let at = find(b"startxref\n").unwrap() + b"startxref\n".len();
        let tail = String::from_utf8_lossy(&bytes[at..]);
        let xref: usize = tail.lines().next().unwrap().parse().unwrap();
        let table = String::from_utf8_lossy(&bytes[xref..]);
        let offsets: Vec<usize> = table
            .lines()
            .skip(3)
            .take_while(|l| !l.starts_with("trailer"))
            .map(|l| l[..10].parse().unwrap())
            .collect();
        assert_eq!(offsets.len(), 8);
        for (i, o) in offsets.iter().enumerate() {
            assert!(
                bytes[*o..].starts_with(format!("{} 0 obj", i + 1).as_bytes()),
                "object {} is not at {o}",
                i + 1
            );
        }
    }
}
