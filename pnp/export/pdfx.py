"""PDF/X-1a: an RGB PDF in; the same pages in CMYK with a PDF/X output intent out, made by
Ghostscript (`gs`), as shops such as DriveThruCards ask; and the total ink on each page of it.

Ghostscript separates every colour with full grey-component replacement: the grey part of a
colour is printed in black ink alone (black generation and undercolour removal both the
identity, the PostScript separation `-dUseFastColor` applies), so black and grey text and thin
lines are K only, a neutral never builds from three inks, and no colour passes 200 % total ink,
under the 240 % DriveThruCards allows (a profile-managed separation put Crunch's black at C72
M68 Y67 K88, 295 %). Ghostscript's CMYK profile is embedded as the document's output intent
(GTS_PDFX, condition CGATS TR 001, the SWOP press DriveThruCards names), and the PDF/X-1a
version key written. pnp then reads the result back with pikepdf and refuses it if any RGB
colour space is left, and renders it in CMYK (`ink_peaks`) so the preflight can hold each page
to the shop's ink limit. Without Ghostscript the export stops with one line naming the package
to install.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

from ..errors import OutsideError

GS_PACKAGE = "ghostscript"  # the Debian (and Homebrew) package that installs `gs`
# Where Ghostscript installs its ICC profiles (Debian, Fedora, Homebrew); the first found wins.
PROFILE_DIRS = ("/usr/share/color/icc/ghostscript", "/usr/share/ghostscript/iccprofiles",
                "/opt/homebrew/share/ghostscript/iccprofiles",
                "/usr/local/share/ghostscript/iccprofiles")
PROFILE_NAME = "default_cmyk.icc"
GS_SECONDS = 300


def ghostscript() -> str:
    found = shutil.which("gs")
    if found is None:
        raise OutsideError(f"pnp export: error: a CMYK PDF/X-1a needs Ghostscript (gs), which is "
                           f"not installed; install the package '{GS_PACKAGE}' "
                           f"(apt install {GS_PACKAGE})")
    return found


def cmyk_profile() -> Path:
    for folder in PROFILE_DIRS:
        path = Path(folder) / PROFILE_NAME
        if path.is_file():
            return path
    raise OutsideError(f"pnp export: error: Ghostscript's CMYK profile ({PROFILE_NAME}) was not "
                       f"found; reinstall the package '{GS_PACKAGE}'")


def _definitions(title: str, profile: Path) -> str:
    """The PostScript that gives Ghostscript the PDF/X keys and the output intent."""
    def text(value: str) -> str:  # a PostScript string: backslashes and parentheses escaped
        return "(" + value.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)") + ")"

    return "\n".join([
        "{} setblackgeneration {} setundercolorremoval",  # full grey-component replacement
        f"[ /GTS_PDFXVersion (PDF/X-1a:2003) /GTS_PDFXConformance (PDF/X-1a:2003) "
        f"/Title {text(title)} /Trapped /False /DOCINFO pdfmark",
        "[ /_objdef {pnp_icc} /type /stream /OBJ pdfmark",
        "[ {pnp_icc} << /N 4 >> /PUT pdfmark",
        f"[ {{pnp_icc}} {text(str(profile))} (r) file /PUT pdfmark",
        "[ /_objdef {pnp_intent} /type /dict /OBJ pdfmark",
        "[ {pnp_intent} << /Type /OutputIntent /S /GTS_PDFX "
        "/OutputCondition (Commercial and specialty offset, paper type 5 (SWOP)) "
        "/OutputConditionIdentifier (CGATS TR 001) /RegistryName (http://www.color.org) "
        "/Info (CGATS TR 001) /DestOutputProfile {pnp_icc} >> /PUT pdfmark",
        "[ {Catalog} << /OutputIntents [ {pnp_intent} ] >> /PUT pdfmark",
        ""])


def to_pdfx(pdf: bytes, title: str) -> bytes:
    """The PDF as PDF/X-1a in CMYK, through Ghostscript."""
    gs, profile = ghostscript(), cmyk_profile()
    with tempfile.TemporaryDirectory(prefix="pnp-pdfx-") as folder:
        source, target = Path(folder) / "in.pdf", Path(folder) / "out.pdf"
        definitions = Path(folder) / "pdfx.ps"
        source.write_bytes(pdf)
        definitions.write_text(_definitions(title, profile), encoding="latin-1",
                               errors="replace")
        command = [gs, "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-dNOOUTERSAVE",
                   f"--permit-file-read={profile}", f"--permit-file-read={folder}/",
                   "-sDEVICE=pdfwrite", "-dPDFX", "-dCompatibilityLevel=1.4",
                   "-sColorConversionStrategy=CMYK", "-sProcessColorModel=DeviceCMYK",
                   "-dPDFSETTINGS=/prepress", "-dEmbedAllFonts=true", "-dUseFastColor",
                   f"-sOutputICCProfile={profile}", f"-sOutputFile={target}",
                   str(definitions), str(source)]
        try:
            done = subprocess.run(command, capture_output=True, timeout=GS_SECONDS)
        except subprocess.TimeoutExpired:
            raise OutsideError(f"pnp export: error: Ghostscript took over {GS_SECONDS} s "
                               "to make the PDF/X-1a") from None
        if done.returncode != 0 or not target.is_file():
            reason = (done.stderr or done.stdout).decode("utf-8", "replace").strip()
            raise OutsideError(f"pnp export: error: Ghostscript could not make the PDF/X-1a: "
                               f"{reason.splitlines()[-1] if reason else done.returncode}")
        return target.read_bytes()


INK_DPI = 50  # pages are rendered this fine to measure their ink


def ink_peaks(pdf: bytes) -> list[float]:
    """The highest total ink on each page of a CMYK PDF, in percent (400 at most), from
    Ghostscript's CMYK render of it (tiff32nc) read with Pillow."""
    from PIL import Image, ImageSequence

    gs = ghostscript()
    with tempfile.TemporaryDirectory(prefix="pnp-ink-") as folder:
        source, target = Path(folder) / "in.pdf", Path(folder) / "pages.tif"
        source.write_bytes(pdf)
        done = subprocess.run([gs, "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE",
                               "-sDEVICE=tiff32nc", f"-r{INK_DPI}", f"-sOutputFile={target}",
                               str(source)], capture_output=True, timeout=GS_SECONDS)
        if done.returncode != 0 or not target.is_file():
            raise OutsideError("pnp export: error: Ghostscript could not render the PDF/X-1a "
                               "to measure its ink")
        peaks = []
        with Image.open(target) as pages:
            for page in ImageSequence.Iterator(pages):
                data = page.convert("CMYK").tobytes()
                peaks.append(max(map(sum, zip(data[0::4], data[1::4], data[2::4],
                                              data[3::4])), default=0) * 100 / 255)
        return peaks


def rgb_colour_spaces(pdf: bytes) -> list[str]:
    """Where the PDF uses RGB colour (empty for a clean CMYK file), read with pikepdf: a
    DeviceRGB, CalRGB or three-channel ICC colour space in any object, and an rg/RG operator
    in any page's or form's drawing."""
    import io

    import pikepdf

    found = []
    with pikepdf.open(io.BytesIO(pdf)) as document:
        for number, obj in enumerate(document.objects):
            if _uses_rgb(obj, set()):
                found.append(f"object {number}")
        for number, page in enumerate(document.pages, start=1):
            streams = [page] + [x for x in _forms(page.obj.get("/Resources"), set())]
            for stream in streams:
                operators = {str(op) for _, op in pikepdf.parse_content_stream(stream)}
                if operators & {"rg", "RG"}:
                    found.append(f"page {number}")
                    break
    return found


def _uses_rgb(obj, seen: set) -> bool:
    import pikepdf

    if isinstance(obj, pikepdf.Name):
        return obj in (pikepdf.Name.DeviceRGB, pikepdf.Name.CalRGB)
    if isinstance(obj, (pikepdf.Dictionary, pikepdf.Stream, pikepdf.Array)):
        key = obj.objgen if obj.is_indirect else None
        if key is not None:
            if key in seen:
                return False
            seen.add(key)
        if isinstance(obj, pikepdf.Array):
            if len(obj) == 2 and obj[0] == pikepdf.Name.ICCBased and \
                    int(obj[1].get("/N", 0)) == 3:
                return True
            return any(_uses_rgb(item, seen) for item in obj)
        items = obj.stream_dict if isinstance(obj, pikepdf.Stream) else obj
        return any(_uses_rgb(items[k], seen) for k in items.keys() if k != "/Parent")
    return False


def _forms(resources, seen: set):
    """The form XObjects a page's resources draw, and theirs in turn."""
    import pikepdf

    if not isinstance(resources, pikepdf.Dictionary) or "/XObject" not in resources:
        return
    for xobject in resources.XObject.values():
        if xobject.get("/Subtype") == "/Form" and xobject.objgen not in seen:
            seen.add(xobject.objgen)
            yield xobject
            yield from _forms(xobject.get("/Resources"), seen)
