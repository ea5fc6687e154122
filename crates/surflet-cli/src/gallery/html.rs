//! The gallery's `index.html`: one self-contained page, relative links, a
//! little CSS and no script.

use std::fmt::Write;

/// An image on the page.
pub struct Img {
    /// File name, relative to the page.
    pub file: String,
    /// Pixel width (also the `width` attribute, so the page lays out before
    /// the images load).
    pub width: u32,
    /// Pixel height.
    pub height: u32,
    /// Alternative text.
    pub alt: String,
}

/// One figure: images, a caption, and the exact parameters.
pub struct Figure {
    /// The anchor, unique on the page.
    pub id: &'static str,
    /// The bold first words of the caption.
    pub title: String,
    /// The images, in order.
    pub images: Vec<Img>,
    /// Further files (file, link text), such as a plot's SVG.
    pub links: Vec<(String, String)>,
    /// What the figure shows and what it reproduces (HTML).
    pub caption: String,
    /// How it was made (HTML).
    pub params: String,
    /// Shares a row with the neighbouring half-width figures, so pictures
    /// meant to be compared sit side by side.
    pub half: bool,
}

/// The figures of one seed document.
pub struct Section {
    /// The document's title.
    pub title: String,
    /// Author, date, and where in the document the figures are (HTML).
    pub source: String,
    /// The figures.
    pub figures: Vec<Figure>,
}

/// Escapes text for HTML content and attribute values.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

const STYLE: &str = "\
body { font: 16px/1.5 system-ui, -apple-system, 'Segoe UI', sans-serif; color: #222;
  background: #f6f6f4; margin: 0 auto; max-width: 68rem; padding: 1rem 1.5rem 4rem; }
h1 { margin-bottom: .2rem; }
h2 { margin-top: 3rem; border-bottom: 1px solid #ccc; }
p.source { color: #555; margin-top: -.5rem; }
figure { margin: 2rem 0; background: #fff; padding: 1rem; border: 1px solid #ddd;
  border-radius: 4px; }
figure img { display: block; max-width: 100%; height: auto; margin: 0 auto .6rem; }
figcaption { max-width: 52rem; margin: 0 auto; }
.params { display: block; color: #555; font-size: .9rem; margin-top: .4rem; }
.links { font-size: .9rem; }
code { font-size: .9em; background: #f0f0ec; padding: 0 .2em; border-radius: 3px; }
.pair { display: grid; grid-template-columns: repeat(auto-fit, minmax(18rem, 1fr)); gap: 0 1rem; }
.pair figure { margin: 1rem 0; }";

/// The whole page.
pub fn page(title: &str, intro: &str, sections: &[Section], footer: &str) -> String {
    let mut s = String::new();
    let _ = write!(
        s,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>\n{STYLE}\n</style>\n</head>\n<body>\n<h1>{}</h1>\n{intro}\n",
        esc(title),
        esc(title)
    );
    for section in sections {
        let _ = writeln!(
            s,
            "\n<h2>{}</h2>\n<p class=\"source\">{}</p>",
            esc(&section.title),
            section.source
        );
        let mut in_row = false;
        for f in &section.figures {
            if f.half != in_row {
                s.push_str(if f.half {
                    "<div class=\"pair\">\n"
                } else {
                    "</div>\n"
                });
                in_row = f.half;
            }
            figure(&mut s, f);
        }
        if in_row {
            s.push_str("</div>\n");
        }
    }
    let _ = write!(s, "\n<footer>\n{footer}\n</footer>\n</body>\n</html>\n");
    s
}

fn figure(s: &mut String, f: &Figure) {
    let _ = writeln!(s, "<figure id=\"{}\">", esc(f.id));
    for img in &f.images {
        let _ = writeln!(
            s,
            "<a href=\"{0}\"><img src=\"{0}\" width=\"{1}\" height=\"{2}\" alt=\"{3}\"></a>",
            esc(&img.file),
            img.width,
            img.height,
            esc(&img.alt)
        );
    }
    let _ = write!(
        s,
        "<figcaption><b>{}.</b> {}\n<span class=\"params\">{}</span>",
        esc(&f.title),
        f.caption,
        f.params
    );
    if !f.links.is_empty() {
        let links: Vec<String> = f
            .links
            .iter()
            .map(|(file, text)| format!("<a href=\"{}\">{}</a>", esc(file), esc(text)))
            .collect();
        let _ = write!(s, "\n<span class=\"links\">{}</span>", links.join(" · "));
    }
    s.push_str("</figcaption>\n</figure>\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping() {
        assert_eq!(esc("a<b & \"c\"'"), "a&lt;b &amp; &quot;c&quot;&#39;");
    }

    #[test]
    fn page_links_every_image() {
        let f = Figure {
            id: "x",
            title: "T".into(),
            images: vec![Img {
                file: "a b.png".into(),
                width: 3,
                height: 4,
                alt: "alt".into(),
            }],
            links: vec![("a.svg".into(), "SVG".into())],
            caption: "c".into(),
            params: "p".into(),
            half: true,
        };
        let sec = Section {
            title: "S".into(),
            source: "src".into(),
            figures: vec![f],
        };
        let p = page("G", "<p>i</p>", &[sec], "f");
        assert!(p.contains("<img src=\"a b.png\" width=\"3\" height=\"4\""));
        assert!(p.contains("<a href=\"a.svg\">SVG</a>"));
        assert!(p.starts_with("<!DOCTYPE html>"));
        assert!(p.contains("<div class=\"pair\">\n<figure id=\"x\">"));
        assert!(p.contains("</figure>\n</div>"));
    }
}
