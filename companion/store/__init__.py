"""companion.store"""
