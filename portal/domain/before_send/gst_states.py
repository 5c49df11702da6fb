"""The states a GSTIN's first two digits name, as the state codes of addresses write them.

The numbers are the GST state codes (CBIC, the GST registration rules' list of state codes);
the letters are ISO 3166-2:IN's, as the address's ``stateCode`` holds them. Where a state's
letters changed (Uttarakhand UT to UK, Odisha OR to OD, Chhattisgarh CT to CG, Telangana TG to
TS) or two territories merged (Dadra and Nagar Haveli and Daman and Diu: DH), each spelling
is accepted. Andhra Pradesh has two numbers, the old 28 and the new 37.
"""

from __future__ import annotations

#: GST state code -> (the state's name, the address state codes it may be written with).
GST_STATES: dict[str, tuple[str, frozenset[str]]] = {
    "01": ("Jammu and Kashmir", frozenset({"JK"})),
    "02": ("Himachal Pradesh", frozenset({"HP"})),
    "03": ("Punjab", frozenset({"PB"})),
    "04": ("Chandigarh", frozenset({"CH"})),
    "05": ("Uttarakhand", frozenset({"UT", "UK"})),
    "06": ("Haryana", frozenset({"HR"})),
    "07": ("Delhi", frozenset({"DL"})),
    "08": ("Rajasthan", frozenset({"RJ"})),
    "09": ("Uttar Pradesh", frozenset({"UP"})),
    "10": ("Bihar", frozenset({"BR"})),
    "11": ("Sikkim", frozenset({"SK"})),
    "12": ("Arunachal Pradesh", frozenset({"AR"})),
    "13": ("Nagaland", frozenset({"NL"})),
    "14": ("Manipur", frozenset({"MN"})),
    "15": ("Mizoram", frozenset({"MZ"})),
    "16": ("Tripura", frozenset({"TR"})),
    "17": ("Meghalaya", frozenset({"ML"})),
    "18": ("Assam", frozenset({"AS"})),
    "19": ("West Bengal", frozenset({"WB"})),
    "20": ("Jharkhand", frozenset({"JH"})),
    "21": ("Odisha", frozenset({"OR", "OD"})),
    "22": ("Chhattisgarh", frozenset({"CT", "CG"})),
    "23": ("Madhya Pradesh", frozenset({"MP"})),
    "24": ("Gujarat", frozenset({"GJ"})),
    "25": ("Daman and Diu", frozenset({"DD", "DH"})),
    "26": ("Dadra and Nagar Haveli and Daman and Diu", frozenset({"DN", "DD", "DH"})),
    "27": ("Maharashtra", frozenset({"MH"})),
    "28": ("Andhra Pradesh", frozenset({"AP"})),
    "29": ("Karnataka", frozenset({"KA"})),
    "30": ("Goa", frozenset({"GA"})),
    "31": ("Lakshadweep", frozenset({"LD"})),
    "32": ("Kerala", frozenset({"KL"})),
    "33": ("Tamil Nadu", frozenset({"TN"})),
    "34": ("Puducherry", frozenset({"PY"})),
    "35": ("Andaman and Nicobar Islands", frozenset({"AN"})),
    "36": ("Telangana", frozenset({"TG", "TS"})),
    "37": ("Andhra Pradesh", frozenset({"AP"})),
    "38": ("Ladakh", frozenset({"LA"})),
}


def gst_state(gstin: str) -> tuple[str, frozenset[str]] | None:
    """The state a GSTIN is registered in (its name, its address codes); None for the codes
    that name no state (97, other territory; 99, the centre's own registrations)."""
    return GST_STATES.get(gstin[:2])


#: Each address state code's name (the last GST number naming it: the merged territory).
_NAMES = {code: name for name, codes in GST_STATES.values() for code in codes}


def state_name(code: str) -> str:
    """A state's name from its address state code; the code itself when it names none."""
    return _NAMES.get(code, code)
