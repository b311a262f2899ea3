"""companion.vision"""
