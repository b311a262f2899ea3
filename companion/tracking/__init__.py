"""companion.tracking"""
