"""Iron Bridge Gorge: the Severn Gorge card game of ironmasters, bids, requirements and trades."""

from rules.iron_bridge_gorge.engine import IronBridgeGorge

GAME = IronBridgeGorge()

__all__ = ["GAME", "IronBridgeGorge"]
