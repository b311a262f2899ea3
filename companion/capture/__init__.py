"""companion.capture"""
