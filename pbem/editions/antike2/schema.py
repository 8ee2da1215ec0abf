"""Antike II's schema parts: BELLONA's free unit and a chosen city type in order files; a
neutral temple, a chosen city type and who holds BELLONA in GM edits; BELLONA's holder,
Pliny and the neutral temples in game files."""

from __future__ import annotations

from typing import Any

from pbem.kernel.facets import Facet


class Antike2Schema(Facet):
    """Antike II's additions to the shared schemas."""

    def parts(self, kind: str) -> dict[str, dict[str, Any]]:
        resource = {"$ref": "#/$defs/resource"}
        if kind == "orders":
            return {
                "arm_order": {"properties": {"free": {
                    "description": "The BELLONA holder's free unit is one of this entry's (at most one entry).",
                    "type": "boolean"}}},
                "city_order": {"properties": {"resource": {
                    "description": "The new city's resource, where the founder chooses it (a site showing all "
                                   "three, or the free-choice variant).", **resource}}},
            }
        if kind == "edit":
            return {
                "province_edit": {"properties": {
                    "neutral_temple": {"description": "A neutral temple stands here (no city).", "type": "boolean"},
                    "resource": {"description": "The city's resource where its founder chose it; null: "
                                                "the printed one.", "oneOf": [resource, {"type": "null"}]}}},
                "bellona_edit": {"type": "object", "additionalProperties": False, "required": ["bellona"],
                                 "properties": {"bellona": {"$ref": "#/$defs/nation"}}},
                "edit": {"oneOf": [{"required": ["bellona"]}],
                         "allOf": [{"if": {"required": ["bellona"]}, "then": {"$ref": "#/$defs/bellona_edit"}}]},
            }
        if kind == "game":
            return {
                "state": {"properties": {"bellona": {
                    "description": "The nation holding BELLONA (003 L254).", "$ref": "#/$defs/nation"}},
                    "required": ["bellona"]},
                "status": {"properties": {"pliny": {
                    "description": "The nation that won Pliny the Elder (nine-scholars variant), or null.",
                    "oneOf": [{"type": "null"}, {"$ref": "#/$defs/nation"}]}}, "required": ["pliny"]},
                "province": {"properties": {
                    "neutral_temple": {"description": "A neutral temple stands here.", "const": True},
                    "resource": {"description": "The resource its founder chose.",
                                 "enum": ["marble", "iron", "gold"]}}},
            }
        return {}
