//! The text of `surflet render --help`. What `sample` shares with it
//! (coordinates, stacks, config files) lives in `surflet help TOPIC`.

/// Description of `surflet render` for `--help`, above the options.
pub const LONG_ABOUT: &str = "\
Render a noise over a 2D slice of 2D, 3D or 4D space into an image: 8- or
16-bit gray or colour-ramped PNG, normal maps, f32 heightmaps (TIFF or raw),
seamless tiles, and animations (APNG, GIF). With nothing but an output name
it writes 512x512 simplex noise as an 8-bit gray PNG.";

/// Everything `--help` shows below the options.
pub const DETAILS: &str = "\
EXAMPLES
  surflet render noise.png
      512x512 2D simplex noise, seed 0, 8 lattice cells across, 8-bit gray
  surflet render terrain.png --ramp terrain --octaves 8 --seed 7
  surflet render height.png --bit-depth 16 --noise perlin --frequency 1/2
  surflet render normals.png --mode normal --octaves 5
  surflet render tile.png --period 8,8 --octaves 3 --size 256
      a seamless tile: exactly 8x8 lattice cells span the image
  surflet render clouds.gif --octaves 5 --frames 64 --loop --size 256
      fBm clouds drifting along z, looping seamlessly
  surflet render ridges.png --fractal ridged --octaves 6 --save-config r.toml
  surflet render big.png --config r.toml --size 1024 --same-view
      the saved image again, at twice the resolution
  surflet render t-3-0.tif --size 65536 --octaves 6 --tile 3,0 --tiles 16,16
      column 3, row 0 of 16x16 tiles: the 4096x4096 pixels of a 65536x65536
      heightmap, exactly the whole image's (one job per tile)

COORDINATES
  Pixel (i, j) samples the world point x = X + (i*A)/B, y = Y + (j*C)/D
  (--origin X,Y and --scale A/B,C/D world units per pixel, default 1/64),
  and the noise sees it times --frequency. `surflet help coordinates` has
  the whole model, which sample shares.

TILING
  --period PX,PY makes the noise periodic, in lattice cells, and unless
  --scale is given sets the scale to (PX/F)/W across and (PY/F)/H down (F
  the frequency): exactly one period spans the image. Column W would sample
  X + PX/F and equal column 0 bit for bit when F and the scale are dyadic
  rationals (like 1 and 8/256), so the image tiles seamlessly; otherwise
  to within rounding, and a warped stack always only to within rounding.
  Axes beyond x and y get the largest power-of-two period the stack accepts
  unless given (--period PX,PY,PZ[,PW]). 2D simplex and simplex-value need
  an even PY and have no periodic 4D form.

VALUES TO PIXELS
  Each value v becomes t = (v - LO)/(HI - LO), where [LO, HI] is
    by default       the documented range: [-1, 1] for every noise kind and
                     normalised fractal, [0, 1] for ridged and turbulence
    --auto-range     the minimum and maximum of all values rendered (over
                     every frame of an animation)
    --range LO,HI    given
  and only then is clamped to [0, 1] and quantised:
    gray    round(t*255), or round(t*65535) with --bit-depth 16
    ramp    the ramp's colour at t, each sRGB channel c interpolated
            linearly between stops, then round(c) or round(c/255*65535)
  TIFF and raw outputs hold the value itself as f32 (the f64 value rounded
  once), or t unclamped with --auto-range or --range.

NORMAL MAPS (--mode normal)
  Computed from the analytic gradient, not finite differences. With h the
  noise value and u, v the pixel coordinates (v runs down the image),
  dh/du = dh/dx * A/B by the chain rule, and the surface z = S*h(u, v) has
  the unit normal
    opengl  (+Y up, the default)  normalize(-S*dh/du,  S*dh/dv, 1)
    directx (+Y down)             normalize(-S*dh/du, -S*dh/dv, 1)
  stored as RGB = round((n*0.5 + 0.5)*255) (or *65535 in 16 bits). S is
  --normal-strength, in pixels of height per unit of noise value; its
  default 0.25/C (C the lattice cells per pixel, the frequency times the
  geometric mean of the two scales) gives slopes of a quarter of the
  noise's own, whatever the resolution.

ANIMATION
  --frames N renders N slices along --animate (z by default, w for 4D
  noise): frame k lies at Z + (k*A)/B for a --step of A/B world units
  (default 1/32 of a cell). --loop makes that axis periodic with period
  N*A/B*F cells, which must be a whole number, so frame N would equal frame
  0 and the animation loops without a seam; without --step it takes the
  step T/(N*F), with T = max(1, round(N/32)) the whole number of cells
  nearest the default speed. PNG output becomes an APNG and GIF an animated
  GIF, both repeating forever at --fps; TIFF gets one page per frame and
  raw the frames one after another.

FORMATS (from OUTPUT's extension, or --format)
  .png          8/16-bit gray, 8/16-bit RGB (ramp, normal); APNG if animated
  .apng         animated PNG, even with one frame
  .gif          8-bit: gray and ramps use one exact 256-entry palette;
                normal maps are quantised per frame (NeuQuant)
  .tif, .tiff   32-bit float grayscale TIFF (BigTIFF past 4 GiB)
  .raw, .f32    raw little-endian f32, row-major, no header

OUTPUT FILES
  OUTPUT is written to a hidden temporary file beside it and renamed into
  place only when complete, so running a command again replaces its image
  (the old one stays intact until the new one is whole), and after Ctrl-C
  or any error neither a new OUTPUT nor the temporary file is left.
  --no-clobber refuses to replace an existing OUTPUT. Requests needing more
  memory than is available are refused before anything is allocated, and
  outputs that cannot fit on the disk (raw and TIFF by size, PNG and GIF
  even at 4:1 compression) before anything is written. A progress bar
  appears on stderr when a render takes over a second and stderr is a
  terminal (never with --quiet).

CONFIG FILES
  --save-config FILE records every choice above except the file format (the
  size as [view] size), and --config FILE renders it again bit for bit, at
  the saved size unless --size is given; flags beside
  --config override it. Keys and versions: `surflet help config`. Stacks
  (fractals, warps): `surflet help stacks`.

EXIT STATUS
  0    success
  1    runtime error: OUTPUT exists with --no-clobber, its directory is
       missing or not writable, not enough memory or disk, writing failed
  2    usage error: a bad option or combination of options, or a bad
       --config file (the message names the key, or the line)
  130  interrupted (Ctrl-C or SIGTERM); nothing was written
";
